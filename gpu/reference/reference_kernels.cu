// tilesim/gpu/reference/reference_kernels.cu: the hand-written reference kernels and their host runner.
//
// DEFINITION. One __global__ template per program around its body (reference_kernels.cuh), instantiated for
// every entry of reference_instances.hpp (kernel I of a program runs entry I) through a table of launch
// functions indexed like the entry list. launch_reference (declared in reference_launch.hpp; reference_run.hpp's
// run_reference_on_device resolves a point to its entry first) checks what a hand-written kernel takes for
// granted (block, grid, dynamic LDS, buffer sizes, distinct operand slots) and launches it with
// gpu/runtime/kernel_launch.hpp's detail::launch_kernel, the host path (buffers, kernel_args, dynamic LDS, clock64
// cycles) the tilesim kernels use. A kernel's operands are kernel_args::pointer[0], [1] (, [2]) in its own
// order, constants like a hand-written kernel's parameters: launch_reference passes the buffers with the
// point's operand slots first (operand k at position k, the others after them) and returns them to their
// slots. Each kernel has the tilesim kernels' launch bounds (TILESIM_REFERENCE_KERNEL). timed_block is
// run_program's timing. This file never includes the cross-check's headers: nvcc's front end does not parse
// util/json.hpp.
//
// WORKED EXAMPLE. copy_instances[3] (fp16 64 x 32, Swizzle<2,3,2>) is the kernel copy_reference<3>, whose body
// is copy_body<copy_instances[3]>, launched by launch_copy<3> = copy_launchers[3]. A point whose copy reads
// slot 2 and writes slot 0 of three buffers launches it on buffers (2, 0, 1) and gets them back as (0, 1, 2).
//
// INVARIANTS: each kernel compiles with 0 bytes of stack and no spill (`-Xptxas -v`, sm_90; 49 kernels, about
// 6 s); only this file and reference_kernels.cuh see the vendor runtime; the kernel bodies include nothing from
// spec/ or sim/ (kernel_launch.hpp, here for the host path, does); buffers come back in slot order, unchanged
// in size.
#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>

#include "gpu/runtime/kernel_launch.hpp"
#include "gpu/reference/reference_kernels.cuh"
#include "gpu/reference/reference_mma_gemm.cuh"
#include "gpu/reference/reference_launch.hpp"

namespace tilesim::gpu {

namespace reference {

// Kernel I of a program runs its body with entry I of the program's list as the template argument (nvcc's
// host stubs cannot spell a class-type template argument of a __global__ template; the bodies take it). Its
// operands are kernel_args::pointer[0], [1] (and [2]) in the kernel's order, (in, out), (a, b, c) or (in,
// weights, out): compile-time slots, each pointer a constant-bank operand, as a hand-written kernel's
// parameters are (launch_reference puts the point's slots there). A run-time slot would make every pointer a
// computed constant-bank load (LDC) on the path to the first access, which the tilesim kernels, whose slots
// are constants, do not pay. The bounds are the tilesim kernels' (gpu/kernels/kernels.cu, TILESIM_COMPILED_KERNEL):
// the block the body is written for and at most 128 registers per thread, 65536 / (threads * 128) blocks per
// SM; so ptxas schedules both under one register budget (with no minimum of blocks per SM it kept the NHWC
// convolution's loads few in flight, FMAs between them, where the tilesim kernel issues all 72 first).
#define TILESIM_REFERENCE_KERNEL(threads) __global__ __launch_bounds__((threads), 65536 / ((threads) * 128))

template <int I>
TILESIM_REFERENCE_KERNEL(copy_instances[I].threads) void copy_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    copy_body<copy_instances[I]>(static_cast<const unsigned char*>(a.pointer[0]), static_cast<unsigned char*>(a.pointer[1]));
  });
}

template <int I>
TILESIM_REFERENCE_KERNEL(sweep_instances[I].tile.threads) void sweep_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    sweep_body<sweep_instances[I]>(static_cast<const unsigned*>(a.pointer[0]), static_cast<unsigned*>(a.pointer[1]));
  });
}

template <int I>
TILESIM_REFERENCE_KERNEL(gemm_instances[I].threads) void gemm_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    gemm_body<gemm_instances[I]>(static_cast<const float*>(a.pointer[0]), static_cast<const float*>(a.pointer[1]),
                                 static_cast<float*>(a.pointer[2]));
  });
}

template <int I>
TILESIM_REFERENCE_KERNEL(mma_gemm_instances[I].threads) void mma_gemm_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    mma_gemm_body<mma_gemm_instances[I]>(static_cast<const unsigned short*>(a.pointer[0]),
                                         static_cast<const unsigned short*>(a.pointer[1]), static_cast<float*>(a.pointer[2]));
  });
}

template <int I>
TILESIM_REFERENCE_KERNEL(morton_instances[I].threads) void morton_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    morton_body<morton_instances[I]>(static_cast<const float*>(a.pointer[0]), static_cast<float*>(a.pointer[1]));
  });
}

template <int I>
TILESIM_REFERENCE_KERNEL(conv_instances[I].threads) void conv_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    conv_body<conv_instances[I]>(static_cast<const float*>(a.pointer[0]), static_cast<const float*>(a.pointer[1]),
                                 static_cast<float*>(a.pointer[2]));
  });
}

template <int I>
TILESIM_REFERENCE_KERNEL(transpose_threads) void transpose_reference(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    transpose_body<transpose_instances[I]>(static_cast<const float*>(a.pointer[0]), static_cast<float*>(a.pointer[1]));
  });
}

namespace {

using launcher = device_result (*)(const device_launch&, std::vector<byte_buffer>);

template <int I>
device_result launch_copy(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(copy_reference<I>, l, std::move(b));
}
template <int I>
device_result launch_sweep(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(sweep_reference<I>, l, std::move(b));
}
template <int I>
device_result launch_gemm(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(gemm_reference<I>, l, std::move(b));
}
template <int I>
device_result launch_mma_gemm(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(mma_gemm_reference<I>, l, std::move(b));
}
template <int I>
device_result launch_morton(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(morton_reference<I>, l, std::move(b));
}
template <int I>
device_result launch_conv(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(conv_reference<I>, l, std::move(b));
}
template <int I>
device_result launch_transpose(const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch_kernel(transpose_reference<I>, l, std::move(b));
}

// One launcher per entry, in entry order.
template <std::size_t... I>
constexpr auto copy_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_copy<static_cast<int>(I)>...};
}
template <std::size_t... I>
constexpr auto sweep_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_sweep<static_cast<int>(I)>...};
}
template <std::size_t... I>
constexpr auto gemm_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_gemm<static_cast<int>(I)>...};
}
template <std::size_t... I>
constexpr auto mma_gemm_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_mma_gemm<static_cast<int>(I)>...};
}
template <std::size_t... I>
constexpr auto morton_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_morton<static_cast<int>(I)>...};
}
template <std::size_t... I>
constexpr auto conv_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_conv<static_cast<int>(I)>...};
}
template <std::size_t... I>
constexpr auto transpose_table(std::index_sequence<I...>) {
  return std::array<launcher, sizeof...(I)>{&launch_transpose<static_cast<int>(I)>...};
}

template <class T, std::size_t N>
constexpr auto indices(const T (&)[N]) {
  return std::make_index_sequence<N>{};
}

const auto copy_launchers = copy_table(indices(copy_instances));
const auto sweep_launchers = sweep_table(indices(sweep_instances));
const auto gemm_launchers = gemm_table(indices(gemm_instances));
const auto mma_gemm_launchers = mma_gemm_table(indices(mma_gemm_instances));
const auto morton_launchers = morton_table(indices(morton_instances));
const auto conv_launchers = conv_table(indices(conv_instances));
const auto transpose_launchers = transpose_table(indices(transpose_instances));

// What the kernel of `what` takes for granted, checked on the host; throws device_error naming `what`.
struct launch_requirements {
  std::string what;
  const device_launch& l;
  const std::vector<byte_buffer>& buffers;

  [[noreturn]] void fail(const std::string& why) const {
    throw device_error("reference kernel for \"" + what + "\": " + why);
  }
  void block(int threads) const {
    if (l.block != threads)
      fail("it is written for " + std::to_string(threads) + " threads per block, the launch has " +
           std::to_string(l.block));
  }
  void grid(long long blocks) const {
    if (l.grid != blocks)
      fail("it is written for a grid of " + std::to_string(blocks) + ", the launch has " + std::to_string(l.grid));
  }
  void lds(long long bytes) const {
    if (static_cast<long long>(l.lds_bytes) < bytes)
      fail("it needs " + std::to_string(bytes) + " bytes of dynamic LDS, the launch gives " +
           std::to_string(l.lds_bytes));
  }
  void slot(int s, long long bytes, const char* name) const {
    if (s < 0 || static_cast<std::size_t>(s) >= buffers.size())
      fail(std::string("slot ") + std::to_string(s) + " (" + name + ") is not one of the " +
           std::to_string(buffers.size()) + " buffers");
    if (static_cast<long long>(buffers[static_cast<std::size_t>(s)].size()) < bytes)
      fail(std::string("buffer ") + std::to_string(s) + " (" + name + ") holds " +
           std::to_string(buffers[static_cast<std::size_t>(s)].size()) + " bytes, the kernel touches " +
           std::to_string(bytes));
  }
};

}  // namespace
}  // namespace reference

device_result launch_reference(const reference::reference_choice& c, const std::string& what, const device_launch& l,
                               std::vector<byte_buffer> buffers) {
  using namespace reference;
  const int index = find_instance(c);
  const launch_requirements need{what, l, buffers};
  if (!c.ok) need.fail("no hand-written kernel: " + c.why);
  if (index < 0) need.fail("no hand-written kernel was compiled for its parameters (gpu/reference/reference_instances.hpp)");
  const int* s = c.slots;
  const auto i = static_cast<std::size_t>(index);
  int operands = 2;  // (in, out); 3 for (a, b, c) and (in, weights, out)
  launcher run = nullptr;
  switch (c.program) {
    case reference_program::copy: {
      const copy_config& q = c.copy;
      const long long bytes = static_cast<long long>(l.grid) * q.rows * q.cols * q.element_bytes;
      need.block(q.threads);
      need.lds(q.lds_bytes());
      need.slot(s[0], bytes, "input");
      need.slot(s[1], bytes, "output");
      run = copy_launchers[i];
      break;
    }
    case reference_program::sweep: {
      const copy_config& q = c.sweep.tile;
      const long long bytes = static_cast<long long>(l.grid) * q.rows * q.cols * 4;
      need.block(q.threads);
      need.lds(q.lds_bytes());
      need.slot(s[0], bytes, "input");
      need.slot(s[1], bytes, "output");
      run = sweep_launchers[i];
      break;
    }
    case reference_program::gemm: {
      const gemm_config& q = c.gemm;
      need.block(q.threads);
      need.grid(q.grid());
      need.lds(q.lds_bytes());
      need.slot(s[0], 4LL * q.m * q.k, "A");
      need.slot(s[1], 4LL * q.n * q.k, "B");
      need.slot(s[2], 4LL * q.m * q.n, "C");
      operands = 3;
      run = gemm_launchers[i];
      break;
    }
    case reference_program::mma_gemm: {
      const mma_gemm_config& q = c.mma_gemm;
      need.block(q.threads);
      need.grid(q.grid());
      need.lds(q.lds_bytes());
      need.slot(s[0], 2LL * q.m * q.k, "A");
      need.slot(s[1], 2LL * q.n * q.k, "B");
      need.slot(s[2], 4LL * q.m * q.n, "C");
      operands = 3;
      run = mma_gemm_launchers[i];
      break;
    }
    case reference_program::morton: {
      const morton_config& q = c.morton;
      need.block(q.threads);
      need.grid(q.grid());
      need.lds(q.lds_bytes());
      need.slot(s[0], 4LL * q.height * q.width, "input");
      need.slot(s[1], 4LL * q.height * q.width, "output");
      run = morton_launchers[i];
      break;
    }
    case reference_program::conv: {
      const conv_config& q = c.conv;
      need.block(q.threads);
      need.grid(q.grid());
      need.slot(s[0], 4LL * q.n * q.h * q.w * q.c_in, "input");
      need.slot(s[1], 4LL * q.c_out * q.gemm_k(), "weights");
      need.slot(s[2], 4LL * q.outputs(), "output");
      operands = 3;
      run = conv_launchers[i];
      break;
    }
    case reference_program::transpose: {
      const long long n = c.transpose_n, tiles = n / transpose_tile;
      need.block(transpose_threads);
      need.grid(tiles * tiles);
      need.lds(transpose_lds_bytes);
      need.slot(s[0], 4 * n * n, "input");
      need.slot(s[1], 4 * n * n, "output");
      run = transpose_launchers[i];
      break;
    }
  }
  if (run == nullptr) need.fail("unknown program");
  // The kernel's operands first (operand k, slot s[k], at position k), then the other buffers in slot order;
  // `order[p]` is the slot at position p. The buffers go back to their slots afterwards.
  std::vector<std::size_t> order;
  for (int k = 0; k < operands; ++k) {
    const auto slot = static_cast<std::size_t>(s[k]);
    if (std::find(order.begin(), order.end(), slot) != order.end())
      need.fail("two of its operands name slot " + std::to_string(slot) + "; the kernel takes distinct buffers");
    order.push_back(slot);
  }
  for (std::size_t k = 0; k < buffers.size(); ++k)
    if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
  std::vector<byte_buffer> operands_first;
  operands_first.reserve(buffers.size());
  for (const std::size_t slot : order) operands_first.push_back(std::move(buffers[slot]));
  device_result r = run(l, std::move(operands_first));
  std::vector<byte_buffer> by_slot(r.buffers.size());
  for (std::size_t p = 0; p < order.size(); ++p) by_slot[order[p]] = std::move(r.buffers[p]);
  r.buffers = std::move(by_slot);
  return r;
}

}  // namespace tilesim::gpu
