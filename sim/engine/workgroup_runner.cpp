// tilesim/sim/engine/workgroup_runner.cpp: the scheduler (rounds of fibers between barriers) and the per-workgroup analysis.
#include "sim/engine/workgroup_runner.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <tuple>

#include "sim/engine/internal/block_state.hpp"
#include "sim/engine/internal/byte_bitmap.hpp"
#include "sim/engine/grouping.hpp"
#include "sim/engine/wave_grouper.hpp"

namespace tilesim::sim {

namespace detail {

namespace {

// The message of a stored exception: "tilesim: xor_t: ..." or "an exception that is no std::exception".
std::string message_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is no std::exception";
  }
}

// Whether a write of dense touches of one space overlaps another of them, from bitmaps of [lo, hi): each touch
// is checked against the bytes touched (a write) or written (a read) before it. No sort: a 64 x 64 GEMM tile's 1024
// C stores are a pass over 2 KiB of bits.
bool dense_write_overlaps(const std::vector<touch>& touches, address_t lo, address_t hi) {
  const std::size_t words = static_cast<std::size_t>((hi - lo + 63) / 64);
  std::vector<std::uint64_t> touched(words, 0), written(words, 0);
  bool overlap = false;
  for (const touch& t : touches) {
    detail::for_each_word_mask(t.begin - lo, t.end - lo, [&](std::size_t word, std::uint64_t mask) {
      overlap = overlap || ((t.write ? touched[word] : written[word]) & mask) != 0;
      touched[word] |= mask;
      if (t.write) written[word] |= mask;
    });
    if (overlap) return true;
  }
  return false;
}

// Whether a write overlaps another touch of its space: without one, find_races has nothing to find. Dense touches
// of one space are checked on bitmaps; others by sorting (space, begin, end) triples, which costs less than the
// search (a 64 x 64 GEMM tile stores 4096 disjoint C vectors).
bool write_overlaps(const std::vector<touch>& touches) {
  struct range {
    int space;
    address_t begin, end;
    bool write;
    bool operator<(const range& o) const { return std::tie(space, begin) < std::tie(o.space, o.begin); }
  };
  if (std::none_of(touches.begin(), touches.end(), [](const touch& t) { return t.write; })) return false;
  address_t lo = touches[0].begin, hi = touches[0].end, bytes = 0;
  bool one_space = true;
  for (const touch& t : touches) {
    lo = std::min(lo, t.begin);
    hi = std::max(hi, t.end);
    bytes += t.end - t.begin;
    one_space = one_space && t.space == touches[0].space;
  }
  if (one_space && detail::bitmap_pays(hi - lo, bytes)) return dense_write_overlaps(touches, lo, hi);
  std::vector<range> r;
  r.reserve(touches.size());
  for (const touch& t : touches) r.push_back({static_cast<int>(t.space), t.begin, t.end, t.write});
  std::sort(r.begin(), r.end());
  // Runs of ranges joined while the next one begins before the run's end: two overlapping ranges share a run,
  // so a write overlaps nothing when every run of two or more holds no write.
  std::size_t i = 0;
  while (i < r.size()) {
    std::size_t j = i + 1;
    address_t end = r[i].end;
    bool write = r[i].write;
    while (j < r.size() && r[j].space == r[i].space && r[j].begin < end) {
      end = std::max(end, r[j].end);
      write = write || r[j].write;
      ++j;
    }
    if (j - i > 1 && write) return true;
    i = j;
  }
  return false;
}

// "copy.hpp:42" for a barrier call site.
std::string site_name(const char* file, int line) {
  const char* slash = std::strrchr(file, '/');
  return std::string(slash ? slash + 1 : file) + ":" + std::to_string(line);
}

// Fiber stacks are kept for the next run: mapping 256 stacks and faulting in their first pages costs ~2 ms,
// more than simulating a small workgroup. Sets are shared by all OS threads (a set serves one thread at a time;
// fcontext switches have no thread affinity, and ASan learns the resuming thread's stack at every switch): a
// runner takes a spare set with enough fibers of at least the stack size asked for (at most twice it), and
// gives its set back when it ends; at most `spare_limit` sets wait, the oldest are unmapped.
constexpr std::size_t spare_limit = 8;
std::mutex spare_mutex;
std::vector<std::unique_ptr<fiber_set>> spare_fibers;

std::unique_ptr<fiber_set> take_fibers(int count, std::size_t stack_bytes) {
  {
    std::lock_guard<std::mutex> lock(spare_mutex);
    for (auto it = spare_fibers.rbegin(); it != spare_fibers.rend(); ++it)
      if ((*it)->count() >= count && (*it)->stack_bytes() >= stack_bytes && (*it)->stack_bytes() <= 2 * stack_bytes) {
        std::unique_ptr<fiber_set> set = std::move(*it);
        spare_fibers.erase(std::next(it).base());
        return set;
      }
  }
  return std::make_unique<fiber_set>(count, stack_bytes);
}

void give_back_fibers(std::unique_ptr<fiber_set> set) {
  std::unique_ptr<fiber_set> dropped;  // unmapped outside the lock
  std::lock_guard<std::mutex> lock(spare_mutex);
  spare_fibers.push_back(std::move(set));
  if (spare_fibers.size() > spare_limit) {
    dropped = std::move(spare_fibers.front());
    spare_fibers.erase(spare_fibers.begin());
  }
}

}  // namespace

class block_runner {
 public:
  block_runner(const launch& config, global_memory& memory, program_ref program, const runner_options& options)
      : config_(config),
        program_(program),
        options_(options),
        owned_fibers_(take_fibers(config.block, config.stack_bytes)),
        fibers_(*owned_fibers_), threads_(static_cast<std::size_t>(config.block)) {
    state_.config = &config_;
    state_.memory = &memory;
    state_.fibers = &fibers_;
    state_.found = &found_;
    state_.lds_storage = std::make_unique_for_overwrite<unsigned char[]>(config.max_lds_bytes);  // zeroed per allocation
    for (int first = 0; first < config.block; first += config.wave_size)
      groupers_.emplace_back(std::min(config.wave_size, config.block - first), config.wave_size, config.split_bytes,
                             config.empty_instructions_issue, &state_.labels.names);
  }

  // Every fiber has finished or never ran (abandon() unwinds the parked ones): the set can serve the next run.
  ~block_runner() { give_back_fibers(std::move(owned_fibers_)); }
  block_runner(const block_runner&) = delete;
  block_runner& operator=(const block_runner&) = delete;

  // Runs workgroup `block` to the end and records its instructions and findings; throws run_error.
  finished_workgroup run(int block) {
    finished_workgroup out;
    record_ = &out.record;
    found_ = {};
    state_.listed = {};
    start(block);
    int barrier = 0;
    for (;;) {
      for (int t = 0; t < config_.block; ++t) {
        if (thread(t).status_ != thread_context::status::runnable) continue;
        fibers_.resume(t);
        if (thread(t).status_ == thread_context::status::threw) fail_thrown(t);
      }
      if (exchange_shuffles()) continue;  // those lanes go on before anyone is checked at a barrier
      std::vector<int> waiting, returned;
      for (int t = 0; t < config_.block; ++t)
        (thread(t).status_ == thread_context::status::at_barrier ? waiting : returned).push_back(t);
      if (waiting.empty()) break;
      if (!returned.empty()) fail_divergent(barrier, waiting, returned);
      check_barrier_sites(barrier);
      analyse_interval(barrier, out.global_touches);
      for (thread_context& t : threads_) t.status_ = thread_context::status::runnable;
      ++barrier;
    }
    state_.record->intervals = barrier + 1;
    analyse_interval(barrier, out.global_touches);
    finish_analysis();
    out.found = found_;
    return out;
  }

  const std::vector<std::string>& labels() const { return state_.labels.names; }
  race_naming naming() {
    return {&state_.labels.names, config_.wave_size,
            [this](memory_space s, int id) { return state_.buffer_name(s, id); }};
  }

 private:
  thread_context& thread(int t) { return threads_[static_cast<std::size_t>(t)]; }

  // The fiber body: run the program, and turn every way out of it into a status.
  static void entry(void* self, int index) {
    auto& runner = *static_cast<block_runner*>(self);
    thread_context& t = runner.thread(index);
    try {
      runner.program_.call(runner.program_.object, t);
      t.land_in_flight(t.in_flight_.size());  // cp.async copies never waited for land as the thread ends
      t.status_ = thread_context::status::finished;
    } catch (const fiber_cancelled&) {
      t.status_ = thread_context::status::finished;
    } catch (...) {
      t.error_ = std::current_exception();
      t.status_ = thread_context::status::threw;
    }
  }

  void start(int block) {
    workgroup_record& rec = *record_;
    rec.block = block;
    if (!options_.keep_labels) state_.labels = label_table{};
    state_.block = block;
    state_.record = &rec;
    state_.lds_used = 0;
    state_.lds.clear();
    state_.touches.clear();
    for (wave_grouper& g : groupers_) g.reset();
    grouped_ = {};
    races_.clear();
    state_.async_races.clear();
    for (int i = 0; i < config_.block; ++i) {
      thread_context& t = thread(i);
      t.state_ = &state_;
      t.grouper_ = &groupers_[static_cast<std::size_t>(i / config_.wave_size)];
      t.touches_ = &state_.touches;
      t.block_ = block;
      t.thread_ = i;
      t.wave_ = i / config_.wave_size;
      t.lane_ = i % config_.wave_size;
      t.label_ = 0;
      t.interval_ = 0;
      t.pending_alu_ = {};
      t.in_flight_.clear();
      t.async_groups_ = 0;
      t.closed_interval_ = -1;
      t.status_ = thread_context::status::runnable;
      t.cancelled_ = false;
      t.lds_calls_ = 0;
      t.barrier_file_ = "";
      t.barrier_line_ = 0;
      t.error_ = nullptr;
      fibers_.start(i, &block_runner::entry, this, config_.measure_stack);
    }
  }

  // Every wave whose lanes all wait at a shuffle exchanges and goes on; true when one did. A wave in which some
  // lanes wait at a shuffle and others returned, wait at a barrier or at another kind of shuffle is an error
  // naming both groups of lanes (on a GPU: undefined behaviour or a hang).
  bool exchange_shuffles() {
    using st = thread_context::status;
    bool any = false;
    for (int first = 0; first < config_.block; first += config_.wave_size) {
      const int last = std::min(config_.block, first + config_.wave_size);
      std::vector<int> at, elsewhere;
      for (int t = first; t < last; ++t) (thread(t).status_ == st::at_shuffle ? at : elsewhere).push_back(t);
      if (at.empty()) continue;
      const thread_context::shuffle_slot& s0 = thread(at.front()).shuffle_;
      std::vector<int> other_kind;
      for (int t : at) {
        const thread_context::shuffle_slot& s = thread(t).shuffle_;
        if (s.kind != s0.kind || s.bytes != s0.bytes || s.matrices != s0.matrices || s.trans != s0.trans || s.mma != s0.mma || s.bf16 != s0.bf16 ||
            s.mfma != s0.mfma || s.matrix_store != s0.matrix_store)
          other_kind.push_back(t);
      }
      if (!elsewhere.empty() || !other_kind.empty()) fail_divergent_shuffle(first / config_.wave_size, at, elsewhere, other_kind);
      if (s0.matrices > 0 || s0.mma) {  // ldmatrix, mma.sync: NVIDIA warps of 32
        if (config_.wave_size != 32 || last - first != 32) {
          abandon();
          throw run_error(run_error::reason::divergent_shuffle, state_.block, at,
                          "tilesim: block " + std::to_string(state_.block) + " wave " +
                              std::to_string(first / config_.wave_size) +
                              ": " + (s0.mma ? "mma.sync" : s0.matrix_store ? "stmatrix" : "ldmatrix") +
                              " needs a whole wave of 32 lanes (wave size " + std::to_string(config_.wave_size) +
                              ", lanes in this wave " + std::to_string(last - first) + ")");
        }
      }
      if (s0.mfma != mfma_shape::none) {  // AMD's MFMA over a wave of 64 (mfma.hpp)
        if (config_.wave_size != mfma_wave_size || last - first != mfma_wave_size) {
          abandon();
          throw run_error(run_error::reason::divergent_shuffle, state_.block, at,
                          "tilesim: block " + std::to_string(state_.block) + " wave " +
                              std::to_string(first / config_.wave_size) + ": " + collective_name(s0) +
                              " needs a whole wave of 64 lanes (wave size " + std::to_string(config_.wave_size) +
                              ", lanes in this wave " + std::to_string(last - first) + ")");
        }
        std::uint32_t a[mfma_wave_size][2], b[mfma_wave_size][2];
        float c[mfma_wave_size][16], d[mfma_wave_size][16];
        for (int t = first; t < last; ++t) {
          const thread_context::shuffle_slot& s = thread(t).shuffle_;
          for (int k = 0; k < 2; ++k) a[t - first][k] = s.row[k], b[t - first][k] = s.b[k];
          for (int k = 0; k < 16; ++k) c[t - first][k] = s.c[k];
        }
        mfma_wave(s0.mfma, a, b, c, d);
        for (int t = first; t < last; ++t)
          for (int k = 0; k < mfma_c_count(s0.mfma); ++k) std::memcpy(&thread(t).shuffle_.words[k], &d[t - first][k], 4);
        for (int t : at) thread(t).status_ = st::runnable;
        any = true;
        continue;
      }
      if (s0.mma) {  // D = A * B + C over the wave's registers (mma.hpp), fp32, k ascending
        float a[16][16], b[16][8], c[16][8];
        const auto to_float = s0.bf16 ? bf16_to_float : half_to_float;
        for (int t = first; t < last; ++t) {
          const thread_context::shuffle_slot& s = thread(t).shuffle_;
          for (int reg = 0; reg < 4; ++reg)
            for (int half = 0; half < 2; ++half) {
              const matrix_position p = mma_a_position(t - first, reg, half);
              a[p.row][p.col] = to_float(static_cast<std::uint16_t>(s.row[reg] >> (16 * half)));
            }
          for (int reg = 0; reg < 2; ++reg)
            for (int half = 0; half < 2; ++half) {
              const matrix_position p = mma_b_position(t - first, reg, half);
              b[p.row][p.col] = to_float(static_cast<std::uint16_t>(s.b[reg] >> (16 * half)));
            }
          for (int reg = 0; reg < 4; ++reg) {
            const matrix_position p = mma_c_position(t - first, reg);
            c[p.row][p.col] = s.c[reg];
          }
        }
        for (int t = first; t < last; ++t)
          for (int reg = 0; reg < 4; ++reg) {
            const matrix_position p = mma_c_position(t - first, reg);
            float d = c[p.row][p.col];
            for (int k = 0; k < 16; ++k) d += a[p.row][k] * b[k][p.col];
            std::memcpy(&thread(t).shuffle_.words[reg], &d, 4);
          }
        for (int t : at) thread(t).status_ = st::runnable;
        any = true;
        continue;
      }
      if (s0.matrices > 0 && s0.matrix_store) {  // stmatrix: each row lane's row from the registers (stmatrix.hpp)
        for (int t : at)
          for (int i = 0; i < s0.matrices; ++i)
            for (int half = 0; half < 2; ++half) {
              const ldmatrix_element e = stmatrix_destination(t - first, i, half, s0.trans);
              std::uint32_t& word = thread(first + e.row_lane).shuffle_.row[e.element / 2];
              const int shift = 16 * (e.element % 2);
              word = (word & ~(0xffffu << shift)) | ((thread(t).shuffle_.words[i] >> (16 * half)) & 0xffffu) << shift;
            }
        for (int t : at) thread(t).status_ = st::runnable;
        any = true;
        continue;
      }
      if (s0.matrices > 0) {  // ldmatrix: each lane's registers from the row lanes (ldmatrix.hpp)
        for (int t : at)
          for (int i = 0; i < s0.matrices; ++i) {
            std::uint32_t word = 0;
            for (int half = 0; half < 2; ++half) {
              const ldmatrix_element e = ldmatrix_source(t - first, i, half, s0.trans);
              const std::uint32_t source = thread(first + e.row_lane).shuffle_.row[e.element / 2];
              word |= ((source >> (16 * (e.element % 2))) & 0xffffu) << (16 * half);
            }
            thread(t).shuffle_.words[i] = word;
          }
        for (int t : at) thread(t).status_ = st::runnable;
        any = true;
        continue;
      }
      std::vector<int> beyond;  // a partial last wave: sources past the workgroup's last thread
      for (int t : at) {
        const thread_context::shuffle_slot& mine = thread(t).shuffle_;
        const int source = first + shuffle_source(mine.kind, t - first, mine.operand, config_.wave_size);
        if (source >= last) beyond.push_back(t);
        else thread(t).shuffle_.result = thread(source).shuffle_.value;
      }
      if (!beyond.empty()) {
        abandon();
        throw run_error(run_error::reason::divergent_shuffle, state_.block, beyond,
                        "tilesim: block " + std::to_string(state_.block) + " wave " +
                            std::to_string(first / config_.wave_size) + ": threads " + id_ranges(beyond) + " " +
                            shuffle_name(s0.kind) + "-shuffle from lanes past the workgroup's last thread " +
                            std::to_string(last - 1) + " (a partial wave has no such lanes)");
      }
      for (int t : at) thread(t).status_ = st::runnable;
      any = true;
    }
    return any;
  }

  // "a 4-byte xor shuffle", "an ldmatrix .x4.trans".
  static std::string collective_name(const thread_context::shuffle_slot& s) {
    if (s.mma) return s.bf16 ? "an mma.sync m16n8k16 (bf16)" : "an mma.sync m16n8k16";
    if (s.mfma == mfma_shape::f32_32x32x8_f16) return "a v_mfma_f32_32x32x8_f16";
    if (s.mfma == mfma_shape::f32_16x16x16_f16) return "a v_mfma_f32_16x16x16_f16";
    if (s.matrices > 0)
      return std::string(s.matrix_store ? "an stmatrix" : "an ldmatrix") + " .x" + std::to_string(s.matrices) +
             (s.trans ? ".trans" : "");
    return "a " + std::to_string(s.bytes) + "-byte " + shuffle_name(s.kind) + " shuffle";
  }

  [[noreturn]] void fail_divergent_shuffle(int wave, const std::vector<int>& at, const std::vector<int>& elsewhere,
                                           const std::vector<int>& other_kind) {
    const thread_context::shuffle_slot& s0 = thread(at.front()).shuffle_;
    std::string message = "tilesim: block " + std::to_string(state_.block) + " wave " + std::to_string(wave) +
                          ": divergent warp collective: threads ";
    if (!other_kind.empty()) {
      std::vector<int> same;
      for (int t : at)
        if (std::find(other_kind.begin(), other_kind.end(), t) == other_kind.end()) same.push_back(t);
      message += id_ranges(same) + " wait at " + collective_name(s0) + ", threads " + id_ranges(other_kind) +
                 " at another kind or width (thread " + std::to_string(other_kind.front()) + ": " +
                 collective_name(thread(other_kind.front()).shuffle_) + ")";
    } else {
      std::vector<int> returned, barrier;
      for (int t : elsewhere)
        (thread(t).status_ == thread_context::status::at_barrier ? barrier : returned).push_back(t);
      message += id_ranges(at) + " wait at " + collective_name(s0) + ", but threads " +
                 (returned.empty() ? "" : id_ranges(returned) + " returned") + (returned.empty() || barrier.empty() ? "" : " and threads ") +
                 (barrier.empty() ? "" : id_ranges(barrier) + " wait at a barrier") + " (every lane of a wave must take part)";
    }
    abandon();
    throw run_error(run_error::reason::divergent_shuffle, state_.block, at, message);
  }

  // Unwinds every thread parked at a barrier or a shuffle, so no fiber is left holding objects on its stack.
  void abandon() {
    for (int t = 0; t < config_.block; ++t)
      if (thread(t).status_ == thread_context::status::at_barrier || thread(t).status_ == thread_context::status::at_shuffle) {
        thread(t).cancelled_ = true;
        fibers_.resume(t);
      }
  }

  thread_ref who(int t) { return {state_.block, t, t / config_.wave_size, t % config_.wave_size}; }

  [[noreturn]] void fail_thrown(int t) {
    const std::exception_ptr cause = thread(t).error_;
    abandon();
    throw run_error(run_error::reason::program_threw, state_.block, {t},
                    "tilesim: " + describe(who(t)) + " threw: " + message_of(cause), cause);
  }

  [[noreturn]] void fail_divergent(int barrier, const std::vector<int>& waiting, const std::vector<int>& returned) {
    std::map<std::string, std::vector<int>> sites;
    for (int t : waiting) sites[site_name(thread(t).barrier_file_, thread(t).barrier_line_)].push_back(t);
    std::string where;
    for (const auto& [site, ids] : sites) where += (where.empty() ? "" : ", ") + id_ranges(ids) + " at " + site;
    abandon();
    throw run_error(run_error::reason::divergent_barrier, state_.block, waiting,
                    "tilesim: block " + std::to_string(state_.block) + ": divergent barrier " +
                        std::to_string(barrier) + ": threads " + where + " wait, but threads " +
                        id_ranges(returned) + " returned without reaching it");
  }

  // Whether every thread waits at thread 0's call site (the same file pointer and line: one site name), so the
  // names need not be made; threads at the same site through different pointers take check_barrier_sites' path.
  bool one_barrier_site() {
    const thread_context& first = thread(0);
    for (int t = 1; t < config_.block; ++t)
      if (thread(t).barrier_file_ != first.barrier_file_ || thread(t).barrier_line_ != first.barrier_line_) return false;
    return true;
  }

  void check_barrier_sites(int barrier) {
    if (one_barrier_site()) return;
    std::map<std::string, std::vector<int>> sites;
    for (int t = 0; t < config_.block; ++t)
      sites[site_name(thread(t).barrier_file_, thread(t).barrier_line_)].push_back(t);
    if (sites.size() < 2 || !state_.room(&diagnostic_counts::barrier_mismatches)) return;
    barrier_mismatch m{state_.block, barrier, {}};
    for (auto& [site, ids] : sites) m.threads.push_back({site, std::move(ids)});
    state_.record->barrier_mismatches.push_back(std::move(m));
  }

  // Closes interval `interval` (every thread waits at its barrier, or returned): its wave instructions (made as the
  // lanes recorded), its races, its global touches passed on; the touch lists are emptied for the next interval.
  void analyse_interval(int interval, std::vector<touch>& global_touches) {
    const int waves = static_cast<int>(groupers_.size());
    if (grouped_.waves.empty())
      for (int w = 0; w < waves; ++w)
        grouped_.waves.push_back({w, std::min(config_.wave_size, config_.block - w * config_.wave_size), {}, {}});
    tails_.resize(static_cast<std::size_t>(config_.block));
    for (int t = 0; t < config_.block; ++t) tails_[static_cast<std::size_t>(t)] = thread(t).alu_tail(interval);
    for (int w = 0; w < waves; ++w) {
      const std::span<const alu_work> tails(tails_.data() + static_cast<std::size_t>(w * config_.wave_size),
                                            static_cast<std::size_t>(grouped_.waves[static_cast<std::size_t>(w)].lanes));
      groupers_[static_cast<std::size_t>(w)].finish(state_.block, w, interval, tails, grouped_.waves[static_cast<std::size_t>(w)],
                                                    grouped_.ambiguities, grouped_.divergences);
    }
    // LDS: no race without a write; else screened word by word, searched only when it may race. Global: searched
    // (few touches per interval).
    interval_touches& recorded = state_.touches;
    bool lds_race = false;
    if (recorded.lds_writes) {
      recorded.expand_lds_reads();
      screen_.cover(state_.lds_used);  // as large as the LDS allocated: every LDS touch lies in it
      for (const lds_touch& a : recorded.lds) screen_.mark(a.begin, a.end, a.thread, a.write, a.atomic);
      lds_race = screen_.race();
      screen_.clear();
    }
    thread_major(recorded.global);
    if (options_.global_touches) global_touches.insert(global_touches.end(), recorded.global.begin(), recorded.global.end());
    const std::vector<touch>* searched = &recorded.global;  // without an LDS race, the global touches alone
    if (lds_race) {
      touches_.clear();
      thread_major(recorded.lds);
      for (const lds_touch& a : recorded.lds)
        touches_.push_back({a.begin, a.end, a.base, memory_space::lds, a.write, a.atomic, state_.block, a.thread, interval,
                            a.label, a.buffer});
      touches_.insert(touches_.end(), recorded.global.begin(), recorded.global.end());
      searched = &touches_;
    }
    if (write_overlaps(*searched))
      for (race& r : find_races(*searched, race_scope::within_workgroup, naming())) races_.push_back(std::move(r));
    recorded.clear();
  }

  // The workgroup's instructions and findings in the order one analysis of the whole workgroup lists them
  // (grouping: wave by wave; races: by space, buffer, first byte, then both sides), listed up to the cap.
  void finish_analysis() {
    workgroup_record& rec = *state_.record;
    rec.waves = std::move(grouped_.waves);
    std::stable_sort(grouped_.ambiguities.begin(), grouped_.ambiguities.end(),
                     [](const ambiguity& a, const ambiguity& b) { return a.wave < b.wave; });
    std::stable_sort(grouped_.divergences.begin(), grouped_.divergences.end(),
                     [](const divergence& a, const divergence& b) { return a.wave < b.wave; });
    for (ambiguity& a : grouped_.ambiguities)
      if (state_.room(&diagnostic_counts::ambiguities)) rec.ambiguities.push_back(std::move(a));
    for (divergence& d : grouped_.divergences)
      if (state_.room(&diagnostic_counts::divergences)) rec.divergences.push_back(std::move(d));
    grouped_ = {};
    for (race& r : state_.async_races) races_.push_back(std::move(r));
    state_.async_races.clear();
    const auto& numbers = state_.labels.numbers;
    auto side = [&](const race_side& s) {
      return std::make_tuple(s.who.block, s.who.thread, s.interval, numbers.at(s.label), s.kind == access_kind::store, s.atomic);
    };
    std::sort(races_.begin(), races_.end(), [&](const race& x, const race& y) {
      return std::make_tuple(static_cast<int>(x.space), x.buffer, x.begin, side(x.first), side(x.second)) <
             std::make_tuple(static_cast<int>(y.space), y.buffer, y.begin, side(y.first), side(y.second));
    });
    for (race& r : races_)
      if (state_.room(&diagnostic_counts::races)) rec.races.push_back(std::move(r));
    races_ = {};
    if (config_.measure_stack)
      for (int t = 0; t < config_.block; ++t) rec.stack_used = std::max(rec.stack_used, fibers_.stack_used(t));
  }

  const launch& config_;
  program_ref program_;
  runner_options options_;
  grouping grouped_;          // the workgroup's instructions and grouping findings so far
  std::vector<wave_grouper> groupers_;  // one per wave: the open interval's instructions
  std::vector<alu_work> tails_;         // one interval's, per thread
  std::vector<race> races_;   // its races so far, not yet listed
  std::vector<touch> touches_;  // one interval's LDS and global touches, when LDS may race
  race_screen screen_{0};     // LDS bytes of one interval, grown to the LDS allocated
  diagnostic_counts found_;             // this workgroup's
  workgroup_record* record_ = nullptr;  // the record being made
  block_state state_;
  std::unique_ptr<fiber_set> owned_fibers_;
  fiber_set& fibers_;
  std::vector<thread_context> threads_;
};

workgroup_runner::workgroup_runner(const launch& config, global_memory& memory, program_ref program,
                                   const runner_options& options)
    : impl_(std::make_unique<block_runner>(config, memory, program, options)) {}
workgroup_runner::~workgroup_runner() = default;
finished_workgroup workgroup_runner::run(int block) { return impl_->run(block); }
const std::vector<std::string>& workgroup_runner::labels() const { return impl_->labels(); }
race_naming workgroup_runner::naming() { return impl_->naming(); }

}  // namespace detail

}  // namespace tilesim::sim
