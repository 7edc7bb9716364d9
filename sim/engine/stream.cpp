// tilesim/sim/engine/stream.cpp: worker threads over an ordered list of workgroups; first failure wins.
#include "sim/engine/stream.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace tilesim::sim {

namespace {

// True when [b, e) overlaps a range of the sorted, disjoint `ranges`.
bool overlaps(const byte_ranges& ranges, address_t b, address_t e) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), std::make_pair(b, ~address_t{0}));
  if (it != ranges.begin() && std::prev(it)->second > b) return true;
  return it != ranges.end() && it->first < e;
}

}  // namespace

stream_result run_stream(const launch& config, global_memory& memory, detail::program_ref program,
                         const stream_options& options) {
  if (options.keep_touches && options.jobs != 1)
    throw std::invalid_argument("run_stream: keep_touches needs jobs = 1 (jobs = " + std::to_string(options.jobs) + ")");
  const std::size_t total = options.order.size();
  const int jobs = static_cast<int>(std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), 1, std::max<std::size_t>(1, total)));
  stream_result result;
  std::atomic<std::size_t> next{0};
  std::atomic<long long> done{0};
  std::mutex m;
  std::condition_variable finished_cv;
  int running = jobs;
  std::size_t failed_at = total;  // the first failing position so far
  std::exception_ptr failure;

  auto work = [&]() {
    grid_touch_map local;
    std::vector<touch> kept;
    std::vector<std::string> labels;
    try {
      detail::workgroup_runner runner(config, memory, program, {.keep_labels = options.keep_labels, .global_touches = true});
      for (;;) {
        const std::size_t at = next.fetch_add(1);
        if (at >= total) break;
        {
          std::lock_guard<std::mutex> lock(m);
          if (at > failed_at) break;
        }
        try {
          const int block = options.order[at];
          detail::finished_workgroup f = runner.run(block);
          local.add_workgroup(block, f.global_touches);
          if (options.keep_touches)
            for (const touch& t : f.global_touches)
              if (overlaps(*options.keep_touches, t.begin, t.end)) kept.push_back(t);
          f.global_touches = {};
          if (options.on_finished) options.on_finished(std::move(f));
        } catch (...) {
          std::lock_guard<std::mutex> lock(m);
          if (at < failed_at) {
            failed_at = at;
            failure = std::current_exception();
          }
        }
        ++done;
      }
      labels = runner.labels();
    } catch (...) {  // the runner itself could not be made (fiber stacks): fail at once
      std::lock_guard<std::mutex> lock(m);
      failed_at = 0;
      failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(m);
    result.touches.merge(local);
    result.kept_touches.insert(result.kept_touches.end(), kept.begin(), kept.end());
    if (options.keep_labels) result.labels = std::move(labels);
    --running;
    finished_cv.notify_all();
  };

  if (jobs == 1 && !options.progress) {
    work();  // one job and no progress to report: the calling thread runs it (no thread to start and join)
  } else {
    std::vector<std::jthread> workers;
    for (int w = 0; w < jobs; ++w) workers.emplace_back(work);
    std::unique_lock<std::mutex> lock(m);
    while (running > 0) {
      finished_cv.wait_for(lock, std::chrono::milliseconds(200));
      if (options.progress) {
        const long long d = done;
        lock.unlock();
        options.progress(d, static_cast<long long>(total));
        lock.lock();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  return result;
}

race_naming global_naming(const std::vector<std::string>& labels, int wave_size, const global_memory& memory) {
  return {&labels, wave_size, [&memory](memory_space s, int id) {
            if (s == memory_space::lds) return "lds allocation " + std::to_string(id);
            return "global buffer " + std::to_string(id) + " ('" + memory.info(id).name + "')";
          }};
}

}  // namespace tilesim::sim
