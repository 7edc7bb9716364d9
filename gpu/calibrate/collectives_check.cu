// tilesim/gpu/calibrate/collectives_check.cu: the warp collectives' semantics on real hardware.
//
// WHAT IT IS. Runs gpu/collectives_probe.cu's kernels (sim/programs/warp_scan.hpp: xor/up/index/down shuffles;
// sim/programs/ldmatrix_read.hpp: ldmatrix .x4 and .x4.trans) on the GPU and compares every output word with
// what the simulator's rules give (shuffle_source in sim/engine/shuffle.hpp, ldmatrix_source in
// sim/engine/ldmatrix.hpp), computed here on the host from the same inputs. The simulator's own tests hold the
// engine to those rules on the CPU; this holds the rules to the hardware. Prints one line per check and
// "collectives: N words compared, M differ"; exit 0 when none differ, 1 otherwise.
// Not part of the Meson build (like calibrate.cu): it runs on the device machine.
//   nvcc -std=c++20 -O3 -arch=sm_90 -I . -o collectives_check gpu/calibrate/collectives_check.cu
//
// WORKED EXAMPLE. warp_scan on 4 blocks of 128 threads: 2048 words; ldmatrix_read on 3 tiles, plain and
// transposed: 2 x 384 words; all equal on an H100 (sim/calibration/h100-collectives.txt).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpu/collectives_probe.cu"

namespace {

using namespace tilesim;

long long compared = 0, differ = 0;

void expect(const char* what, std::size_t at, std::uint32_t got, std::uint32_t want) {
  ++compared;
  if (got == want) return;
  if (++differ <= 10) std::printf("  %s word %zu: GPU 0x%08x, rules 0x%08x\n", what, at, got, want);
}

template <class T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  TILESIM_HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&d), v.size() * sizeof(T)));
  TILESIM_HIP_CHECK(hipMemcpy(d, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> v(n);
  TILESIM_HIP_CHECK(hipMemcpy(v.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  return v;
}

void check_warp_scan() {
  const int grid = 4, block = 128, w = 32;
  std::vector<std::int32_t> in(grid * block);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::int32_t>(i * 2654435761u);
  std::int32_t* d_in = upload(in);
  std::int32_t* d_out = upload(std::vector<std::int32_t>(4 * in.size(), -1));
  gpu::kernel_args a;
  a.pointer[0] = d_in;
  a.pointer[1] = d_out;
  a.bytes[0] = static_cast<index_t>(in.size() * 4);
  a.bytes[1] = static_cast<index_t>(in.size() * 16);
  a.slots = 2;
  gpu::warp_scan_kernel<<<grid, block>>>(a);
  TILESIM_HIP_CHECK(hipGetLastError());
  TILESIM_HIP_CHECK(hipDeviceSynchronize());
  const std::vector<std::int32_t> out = download(d_out, 4 * in.size());
  for (std::size_t g = 0; g < in.size(); ++g) {
    const std::size_t first = g / w * w;
    const int lane = static_cast<int>(g - first);
    // The same steps through the rules: butterfly, Hillis-Steele scan, broadcast, shift.
    std::vector<std::uint32_t> sum(w), scan(w);
    for (int l = 0; l < w; ++l) sum[l] = scan[l] = static_cast<std::uint32_t>(in[first + l]);
    for (int mask = w / 2; mask >= 1; mask /= 2) {
      std::vector<std::uint32_t> next(w);
      for (int l = 0; l < w; ++l) next[l] = sum[l] + sum[shuffle_source(shuffle_kind::xor_lanes, l, mask, w)];
      sum = next;
    }
    for (int d = 1; d < w; d *= 2) {
      std::vector<std::uint32_t> next(w);
      for (int l = 0; l < w; ++l) next[l] = scan[l] + (l >= d ? scan[shuffle_source(shuffle_kind::up, l, d, w)] : 0);
      scan = next;
    }
    expect("warp_scan sum", 4 * g, out[4 * g], sum[lane]);
    expect("warp_scan scan", 4 * g + 1, out[4 * g + 1], scan[lane]);
    expect("warp_scan index 0", 4 * g + 2, out[4 * g + 2], in[first + shuffle_source(shuffle_kind::index, lane, 0, w)]);
    expect("warp_scan down 1", 4 * g + 3, out[4 * g + 3], in[first + shuffle_source(shuffle_kind::down, lane, 1, w)]);
  }
  TILESIM_HIP_CHECK(hipFree(d_in));
  TILESIM_HIP_CHECK(hipFree(d_out));
  std::printf("warp_scan: %d blocks x %d threads checked\n", grid, block);
}

void check_ldmatrix(bool trans) {
  const int grid = 3;
  std::vector<std::uint16_t> in(grid * 256);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::uint16_t>(k * 7 + 3);
  std::uint16_t* d_in = upload(in);
  std::uint32_t* d_out = upload(std::vector<std::uint32_t>(grid * 128, 0xFFFFFFFFu));
  gpu::kernel_args a;
  a.pointer[0] = d_in;
  a.pointer[1] = d_out;
  a.bytes[0] = static_cast<index_t>(in.size() * 2);
  a.bytes[1] = static_cast<index_t>(grid * 128 * 4);
  a.slots = 2;
  a.lds_bytes = 512;
  gpu::ldmatrix_read_kernel<<<grid, 32, 512>>>(a, trans);
  TILESIM_HIP_CHECK(hipGetLastError());
  TILESIM_HIP_CHECK(hipDeviceSynchronize());
  const std::vector<std::uint32_t> out = download(d_out, grid * 128);
  for (int b = 0; b < grid; ++b)
    for (int t = 0; t < 32; ++t)
      for (int i = 0; i < 4; ++i) {
        // Row lane L of matrix i passed the offset of tile row 8 (i % 2) + L % 8, column 8 (i / 2).
        std::uint32_t want = 0;
        for (int half = 0; half < 2; ++half) {
          const ldmatrix_element e = ldmatrix_source(t, i, half, trans);
          const int row = 8 * (i % 2) + e.row_lane % 8, col = 8 * (i / 2) + e.element;
          want |= std::uint32_t{in[static_cast<std::size_t>(b * 256 + row * 16 + col)]} << (16 * half);
        }
        expect(trans ? "ldmatrix .x4.trans" : "ldmatrix .x4", static_cast<std::size_t>((b * 32 + t) * 4 + i),
               out[static_cast<std::size_t>((b * 32 + t) * 4 + i)], want);
      }
  TILESIM_HIP_CHECK(hipFree(d_in));
  TILESIM_HIP_CHECK(hipFree(d_out));
  std::printf("ldmatrix%s: %d tiles checked\n", trans ? " .trans" : "", grid);
}

}  // namespace

int main() {
  try {
    check_warp_scan();
    check_ldmatrix(false);
    check_ldmatrix(true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "collectives_check: %s\n", e.what());
    return 2;
  }
  std::printf("collectives: %lld words compared, %lld differ\n", compared, differ);
  return differ == 0 ? 0 : 1;
}
