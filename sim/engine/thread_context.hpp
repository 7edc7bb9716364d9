// tilesim/sim/engine/thread_context.hpp: the simulator's execution context: one per simulated thread.
//
// DEFINITION. thread_context implements program.hpp's tile_context on the CPU. The engine makes one per
// thread of a workgroup and runs the program on it inside that thread's fiber. Ids come from the launch;
// global<T>(slot) and lds<T>(count) return recording_buffers; barrier() parks the fiber until every thread
// of the workgroup has arrived; label(name) names the accesses that follow (kept until the next label).
// Misuse inside a program (a slot that does not exist, a type that is not the buffer's, LDS calls that
// disagree between threads, LDS past launch::max_lds_bytes) throws program_usage_error, which the engine
// reports as a run_error naming the thread.
//
// WORKED EXAMPLE. launch{.block = 256, .wave_size = 64}, thread 130 of workgroup 1:
//   thread_id() == 130, warp() == 2, lane() == 2, block_id() == 1, block_size() == 256
//   auto a = ctx.lds<float>(256);   // allocation 0, LDS bytes [0, 1024) in every thread
//   auto b = ctx.lds<int>(10);      // allocation 1, LDS bytes [1024, 1064)
//
// INVARIANTS: the k-th lds call of every thread returns the same allocation (created by the first thread to
// make it); an allocation's offset is a multiple of 16; interval() is the number of barriers passed.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/engine/access_recorder.hpp"
#include "kernel/model/alu_op.hpp"
#include "kernel/model/ldmatrix.hpp"
#include "kernel/model/mfma.hpp"
#include "kernel/model/mma.hpp"
#include "kernel/model/shuffle.hpp"
#include "kernel/model/stmatrix.hpp"
#include "sim/engine/recording_buffer.hpp"
#include "sim/engine/shared_value.hpp"
#include "sim/engine/type_key.hpp"

namespace tilesim::sim {

namespace detail {
class block_runner;
struct window_memo;
}

// A program used the context wrongly: "global buffer 1 ('out') holds float, not int".
class program_usage_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class thread_context : public access_recorder {
 public:
  // The engine makes one per simulated thread; a copy would park and resume behind the scheduler's back.
  thread_context() = default;
  thread_context(const thread_context&) = delete;
  thread_context& operator=(const thread_context&) = delete;

  index_t thread_id() const { return thread_; }
  index_t lane() const { return lane_; }
  index_t warp() const { return wave_; }
  index_t block_id() const { return block_; }
  index_t block_size() const;
  index_t grid_size() const;
  index_t warp_size() const;

  // Waits until every thread of the workgroup arrives; file and line only name the call site in reports
  // (compiler builtins: clang 14 with libstdc++ 12 has no usable std::source_location).
  void barrier(const char* file = __builtin_FILE(), int line = __builtin_LINE());
  // Names the accesses that follow: ctx.label("lds store"). nullptr is "".
  void label(const char* name);
  // States n arithmetic instructions of class op (program.hpp's alu()): ctx.alu(alu_op::fma, 16).
  void alu(alu_op op, index_t n) { note_alu(static_cast<int>(op), n); }

  // A warp shuffle (shuffle.hpp): parks until every lane of the wave has arrived, then returns the value of
  // the source lane. ctx.shuffle(shuffle_kind::xor_lanes, v, 1). Values of 4 or 8 bytes.
  template <class T>
  T shuffle(shuffle_kind kind, const T& value, index_t operand) {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "shuffle: a value is 4 or 8 trivially copyable bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    const std::uint64_t r = exchange(kind, bits, operand, static_cast<int>(sizeof(T)));
    T out;
    std::memcpy(&out, &r, sizeof(T));
    return out;
  }

  // ldmatrix (ldmatrix.hpp): lanes below 8 Count load their row (8 elements at `offset`, one recorded 16-byte
  // access at the caller's line), then, once the wave has arrived, every lane receives its registers.
  template <int Count, bool Trans, class B>
  ldmatrix_fragment<Count> ldmatrix(const B& lds, index_t offset, const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
    static_assert(sizeof(typename B::value_type) == 2, "ldmatrix: elements are 16 bits");
    std::uint32_t row[4] = {};
    if (lane_ < 8 * Count) {
      typename B::value_type v[8] = {};
      matrix_access_ = true;
      lds.load(offset, 8, v, true, file, line);
      matrix_access_ = false;
      std::memcpy(row, v, 16);
    }
    ldmatrix_fragment<Count> f;
    collect_matrix(row, Count, Trans, f.r);
    return f;
  }

  // stmatrix (stmatrix.hpp): parks until the wave has arrived and each address lane (below 8 Count) has its row
  // from the lanes' registers, then stores it (8 elements at `offset`, one recorded 16-byte access at the
  // caller's line).
  template <int Count, bool Trans, class B>
  void stmatrix(const B& lds, index_t offset, const stmatrix_fragment<Count>& f, const char* file = __builtin_FILE(),
                int line = __builtin_LINE()) {
    static_assert(sizeof(typename B::value_type) == 2, "stmatrix: elements are 16 bits");
    std::uint32_t row[4] = {};
    scatter_matrix(f.r, Count, Trans, row);
    if (lane_ < 8 * Count) {
      typename B::value_type v[8];
      std::memcpy(v, row, 16);
      matrix_access_ = true;
      lds.store(offset, 8, v, true, file, line);
      matrix_access_ = false;
    }
  }

  // mma.sync m16n8k16 (mma.hpp): parks until the whole wave has arrived; returns this lane's part of D.
  mma_m16n8k16_c mma(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b, const mma_m16n8k16_c& c);
  // The same with bfloat16 A and B (mma.sync ...f32.bf16.bf16.f32).
  mma_m16n8k16_c mma_bf16(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b, const mma_m16n8k16_c& c);
  // MFMA f16 (mfma.hpp): parks until the whole wave of 64 has arrived; returns this lane's part of D.
  mfma_32x32x8_c mfma_32x32x8(const mfma_f16_operand& a, const mfma_f16_operand& b, const mfma_32x32x8_c& c);
  mfma_16x16x16_c mfma_16x16x16(const mfma_f16_operand& a, const mfma_f16_operand& b, const mfma_16x16x16_c& c);

  // The window setups this thread's runner shares between its threads (shared_window.hpp).
  detail::window_memo& window_memo();
  // f(x), made once by the runner's threads (program.hpp's derive_once; shared_value.hpp): a captureless f and
  // an x that compares by value. The runner's kept value, valid while this thread's workgroup runs.
  template <class T, class F>
    requires(std::is_empty_v<F> && detail::shareable_key<T>)
  const auto& shared_value(const T& x, F f) {
    return detail::shared_value(window_memo(), x, f);
  }

  // cp.async (async_copy.hpp): reads N elements of `global` now (one recorded global load at the caller's line) and
  // writes them to `lds` when an async_wait covers the copy (recorded then as an LDS store at the same line).
  template <index_t N, class L, class G>
  void async_copy(const L& lds, index_t lds_offset, const G& global, index_t global_offset,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    using T = typename L::value_type;
    static_assert(std::is_same_v<T, typename G::value_type>, "async_copy: LDS and global elements of one type");
    static_assert(N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16, "async_copy: 4, 8 or 16 bytes");
    T v[N] = {};
    async_copy_ = true;
    global.load(global_offset, N, v, true, file, line);
    async_copy_ = false;
    issue_async(lds.ref(), reinterpret_cast<unsigned char*>(lds.data()), lds_offset, N, v, {file, line});
  }
  // cp.async.commit_group: the copies issued since the last commit become the newest group.
  void async_commit() { commit_async(); }
  // cp.async.wait_group N: lands the copies of every committed group but the N newest.
  template <int N>
  void async_wait() {
    static_assert(N >= 0, "async_wait: N groups may stay in flight, N >= 0");
    wait_async(N);
  }

  // Global buffer `slot`, which the host made of T.
  template <class T>
  recording_buffer<T> global(int slot) {
    void* data = nullptr;
    const buffer_ref ref = global_ref(slot, type_key_of<T>(), &type_name_of<T>, &data);
    return recording_buffer<T>(this, static_cast<T*>(data), ref);
  }
  // The workgroup's next LDS allocation: `count` T's, 16-byte aligned, zero-filled when created.
  template <class T>
  recording_buffer<T> lds(index_t count) {
    void* data = nullptr;
    const buffer_ref ref = lds_ref(count, type_key_of<T>(), &type_name_of<T>, sizeof(T), alignof(T), &data);
    return recording_buffer<T>(this, static_cast<T*>(data), ref);
  }

 private:
  friend class detail::block_runner;
  enum class status { runnable, at_barrier, at_shuffle, finished, threw };
  // What a lane offers at a shuffle and, once the wave exchanged, what it receives.
  struct shuffle_slot {
    shuffle_kind kind = shuffle_kind::index;
    std::uint64_t value = 0;
    index_t operand = 0;
    int bytes = 4;
    std::uint64_t result = 0;
    int matrices = 0;              // > 0: an ldmatrix (stmatrix) of this many matrices (kind, value, operand unused)
    bool trans = false;
    bool matrix_store = false;     // with matrices: an stmatrix
    std::uint32_t row[4] = {};     // ldmatrix: this lane's row (8 x 16 bits); stmatrix: the row it receives
    std::uint32_t words[16] = {};  // ldmatrix: the registers it receives; stmatrix: those it supplies; mma, MFMA: D
    bool mma = false;              // an mma.sync m16n8k16: row = A's 4 registers, b = B's 2, c = C's 4 floats
    bool bf16 = false;             // mma: A and B are bfloat16 (else fp16)
    mfma_shape mfma = mfma_shape::none;  // an MFMA: row = A's 2 registers, b = B's 2, c = C's 16 or 4 floats
    std::uint32_t b[2] = {};
    float c[16] = {};
  };
  std::uint64_t exchange(shuffle_kind kind, std::uint64_t value, index_t operand, int bytes);
  void collect_matrix(const std::uint32_t* row, int matrices, bool trans, std::uint32_t* out);
  void scatter_matrix(const std::uint32_t* registers, int matrices, bool trans, std::uint32_t* row);
  mma_m16n8k16_c exchange_mma(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b, const mma_m16n8k16_c& c, bool bf16);
  void exchange_mfma(mfma_shape shape, const mfma_f16_operand& a, const mfma_f16_operand& b, const float* c, float* d);
  using name_function = std::string (*)();

  buffer_ref global_ref(int slot, type_key type, name_function type_name, void** data);
  buffer_ref lds_ref(index_t count, type_key type, name_function type_name, std::size_t element_bytes,
                     std::size_t alignment, void** data);

  status status_ = status::runnable;
  bool cancelled_ = false;  // set by the engine to unwind a parked fiber after another thread failed
  int lds_calls_ = 0;
  const char* barrier_file_ = "";
  int barrier_line_ = 0;
  shuffle_slot shuffle_;
  std::exception_ptr error_;
};

}  // namespace tilesim::sim

// Tile windows over recording buffers share their setup between threads (found by argument-dependent lookup).
#include "sim/engine/shared_window.hpp"
