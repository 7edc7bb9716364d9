// The same program as runtime_window.cu with the encoding a compile-time constant (constant<E>{}): a
// static_tile_window, which compiles as a kernel.
// expect: compiles
#include "gpu/user/user_kernel.cuh"
#include "kernel/model/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/window/static_tile_window.hpp"

struct static_window_copy {
  int in = 0, out = 1;
  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    using namespace tilesim;
    constexpr tile_distribution_encoding raked = make_warp_raked_encoding(256, 32, 64, 64, 4);
    const auto src = make_tensor_view(constant<make_row_major_descriptor(64, 64)>{}, global_buffer<float>(ctx, in),
                                      address_space::global);
    auto staged = make_distributed_tensor<float, raked>();
    make_tile_window(src, {64, 64}, {0, 0}, constant<raked>{}, partition_index(raked, ctx.warp(), ctx.lane())).load(staged);
  }
};
TILESIM_DECLARE_GPU_KERNEL(static_window_copy);
TILESIM_GPU_KERNEL(static_window_copy)
