// tilesim/gpu/props/compile_batch.cpp: compile_batch (compile_batch.hpp).
#include "gpu/props/compile_batch.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "gpu/props/kernel_source.hpp"

namespace tilesim::gpu::props {

std::vector<compiled_kernel> compile_batch(const std::vector<props_case>& cases, const rtc_options& o, int jobs,
                                           const std::function<void(std::size_t, std::size_t)>& on_done) {
  std::vector<compiled_kernel> out(cases.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex m;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < cases.size();) {
      const std::string name = kernel_name(cases[i]);
      compiled_kernel k = compile_kernel(kernel_source(cases[i], name), name, o);
      std::lock_guard<std::mutex> lock(m);
      out[i] = std::move(k);
      ++done;
      if (on_done) on_done(done, cases.size());
    }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, std::min(jobs, static_cast<int>(cases.size())));
  for (int j = 0; j < n; ++j) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  return out;
}

}  // namespace tilesim::gpu::props
