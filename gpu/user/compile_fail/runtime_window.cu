// A user program whose window is made from a run-time encoding (a tile_distribution_encoding value, not
// constant<E>{}) does not compile as a kernel: the refusal names the compile-time form.
// expect: make_tile_window(view, lengths, origin, constant<E>{}, thread)
#include "gpu/user/user_kernel.cuh"
#include "kernel/model/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/window/static_tile_window.hpp"

struct runtime_window_copy {
  int in = 0, out = 1;
  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    using namespace tilesim;
    const tile_distribution_encoding raked = make_warp_raked_encoding(256, 32, 64, 64, 4);  // a run-time value
    const auto src = make_tensor_view(constant<make_row_major_descriptor(64, 64)>{}, global_buffer<float>(ctx, in),
                                      address_space::global);
    auto staged = make_distributed_tensor<float, 16>(raked);
    make_tile_window(src, {64, 64}, {0, 0}, raked, partition_index(raked, ctx.warp(), ctx.lane())).load(staged);
  }
};
TILESIM_DECLARE_GPU_KERNEL(runtime_window_copy);
TILESIM_GPU_KERNEL(runtime_window_copy)
