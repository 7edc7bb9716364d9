// tilesim/kernel/model/async_copy.hpp: cp.async, sm80+'s copy from global memory to LDS that bypasses registers.
//
// DEFINITION (PTX ISA, "cp.async", "cp.async.commit_group", "cp.async.wait_group"). async_copy<N>(ctx, lds, i,
// global, j) starts copying N elements (4, 8 or 16 bytes) from global element j to LDS element i and returns at
// once: the thread may not touch those LDS bytes, nor may any other thread, until the copy has landed and been
// published. async_commit(ctx) closes the copies issued since the last commit into one group (the newest);
// async_wait<K>(ctx) waits until at most the K newest committed groups are still in flight: every older copy has
// landed, visible to this thread. Other threads see them after a barrier that follows the wait. Copies issued but
// never committed are not waited for by any wait_group (commit first). The pipeline idiom: issue tile k+1's copies,
// commit, async_wait<1> (tile k has landed), barrier, compute on tile k.
//
// ON THE SIMULATOR (sim/engine/async_copies.cpp) a copy reads global memory when issued (one global load) and
// writes LDS when a wait covers it (one LDS store at the copy's line: its banks are priced there). Touching bytes
// in flight is reported as a race between the copy and the access, whether the issuing thread did not wait or
// another thread did not wait for a barrier after the wait. A copy never waited for lands when its thread ends.
// ON A GPU it is cp.async.ca (4, 8 bytes) or cp.async.cg (16 bytes: L1 bypassed) on sm80 and later; on a context
// without cp.async (AMD, or an older NVIDIA arch) a plain load and LDS store, which lands at issue: a stricter order
// than the program may assume, so a program correct under cp.async's rules is correct there too.
//
// WORKED EXAMPLE (4x4 floats: thread t of 4 copies row t, 16 bytes, then reads column 0 after the barrier):
//   async_copy<4>(ctx, lds, 4 * t, in, 4 * t);   // global load of row t (one instruction per wave)
//   async_commit(ctx);                            // group 0 = {row t}
//   async_wait<0>(ctx);                           // row t lands: LDS store of 16 bytes at the copy's line
//   ctx.barrier();
//   float x = load_element(lds, 4 * ((t + 1) % 4));  // row t+1's first element: no race
// Without the wait, the read of row t+1 races with thread t+1's copy; with async_wait<1>, group 0 stays in flight.
//
// INVARIANTS: N * sizeof(T) is 4, 8 or 16; both buffers hold T; the LDS element i and the global element j are
// aligned to the copy's size (an unaligned copy is reported as misaligned by the simulator, a fault on a GPU).
#pragma once

#include "spec/window/tensor_view.hpp"

namespace tilesim {

// Starts copying N elements: async_copy<4>(ctx, lds, 4 * t, in, row * 4) (16 bytes of float).
template <index_t N, class Ctx, element_buffer L, element_buffer G>
TILESIM_HOST_DEVICE void async_copy(Ctx& ctx, const L& lds, index_t lds_offset, const G& global, index_t global_offset,
                                    const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  using T = typename L::value_type;
  static_assert(N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16,
                "async_copy: a copy moves 4, 8 or 16 bytes");
  if constexpr (requires { ctx.template async_copy<N>(lds, lds_offset, global, global_offset, file, line); })
    ctx.template async_copy<N>(lds, lds_offset, global, global_offset, file, line);
  else if constexpr (requires { ctx.template async_copy<N>(lds, lds_offset, global, global_offset); })
    ctx.template async_copy<N>(lds, lds_offset, global, global_offset);
  else {  // no cp.async: the copy lands at once
    T v[N];
    load_vector<N>(global, global_offset, v, true);
    store_vector<N>(lds, lds_offset, v, true);
  }
}

// cp.async.commit_group: async_commit(ctx) after a tile's copies.
template <class Ctx>
TILESIM_HOST_DEVICE void async_commit(Ctx& ctx) {
  if constexpr (requires { ctx.async_commit(); }) ctx.async_commit();
}

// cp.async.wait_group K: async_wait<1>(ctx) lets the newest group stay in flight, async_wait<0>(ctx) lands all.
template <int K, class Ctx>
TILESIM_HOST_DEVICE void async_wait(Ctx& ctx) {
  static_assert(K >= 0, "async_wait<K>: K, the groups that may stay in flight, is >= 0");
  if constexpr (requires { ctx.template async_wait<K>(); }) ctx.template async_wait<K>();
}

}  // namespace tilesim
