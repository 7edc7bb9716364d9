// tilesim/gpu/calibrate/collectives_check.cu: the warp collectives' semantics on real hardware.
//
// WHAT IT IS. Runs gpu/kernels/collectives_probe.cu's kernels (kernel/warp_scan/warp_scan.hpp: xor/up/index/down shuffles;
// kernel/ldmatrix_read/ldmatrix_read.hpp: ldmatrix .x4 and .x4.trans; kernel/stmatrix_write/stmatrix_write.hpp: stmatrix
// .x1/.x2/.x4, plain and .trans, read back both ways; kernel/mma_tile/mma_tile.hpp: mma.sync m16n8k16, fp16 and bf16)
// on the GPU and compares every output word with
// what the simulator's rules give (shuffle_source in kernel/model/shuffle.hpp, ldmatrix_source in
// kernel/model/ldmatrix.hpp, stmatrix_destination in kernel/model/stmatrix.hpp; the fragment positions of kernel/model/mma.hpp), computed here on the host from the same inputs. The simulator's own tests hold the
// engine to those rules on the CPU; this holds the rules to the hardware. Prints one line per check and
// "collectives: N words compared, M differ"; exit 0 when none differ, 1 otherwise.
// Not part of the Meson build (like calibrate.cu): it runs on the device machine.
//   nvcc -std=c++20 -O3 -arch=sm_90 -I . -o collectives_check gpu/calibrate/collectives_check.cu
//
// WORKED EXAMPLE. warp_scan on 4 blocks of 128 threads: 2048 words; ldmatrix_read on 3 tiles, plain and
// transposed: 2 x 384 words; all equal on an H100 (data/calibration/h100-collectives.txt). stmatrix_write on 3
// tiles in 12 forms: 12 x 384 words (added after that recording; not run on a GPU yet).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu/kernels/collectives_probe.cu"

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

// stmatrix_write: stmatrix .x{count}[.trans] of distinct registers, read back with ldmatrix of the same layout (every
// register must come back) or with ldmatrix .x4 over the whole tile (each half where stmatrix_destination puts it,
// unwritten quadrants 0).
void check_stmatrix(int count, bool trans, bool whole_tile) {
  const int grid = 3;
  std::vector<std::uint32_t> in(grid * 128);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::uint32_t>(2 * k) | static_cast<std::uint32_t>(2 * k + 1) << 16;
  std::uint32_t* d_in = upload(in);
  std::uint32_t* d_out = upload(std::vector<std::uint32_t>(grid * 128, 0xFFFFFFFFu));
  gpu::kernel_args a;
  a.pointer[0] = d_in;
  a.pointer[1] = d_out;
  a.bytes[0] = static_cast<index_t>(in.size() * 4);
  a.bytes[1] = static_cast<index_t>(grid * 128 * 4);
  a.slots = 2;
  a.lds_bytes = 512;
  gpu::stmatrix_write_kernel<<<grid, 32, 512>>>(a, count, trans, whole_tile);
  TILESIM_HIP_CHECK(hipGetLastError());
  TILESIM_HIP_CHECK(hipDeviceSynchronize());
  const std::vector<std::uint32_t> out = download(d_out, grid * 128);
  char what[48];
  std::snprintf(what, sizeof what, "stmatrix .x%d%s, %s", count, trans ? ".trans" : "", whole_tile ? "whole tile" : "round trip");
  for (int b = 0; b < grid; ++b) {
    std::uint16_t tile[256] = {};  // through the rules: matrix i is quadrant (8 (i % 2), 8 (i / 2))
    for (int t = 0; t < 32; ++t)
      for (int i = 0; i < count; ++i)
        for (int half = 0; half < 2; ++half) {
          const ldmatrix_element e = stmatrix_destination(t, i, half, trans);
          tile[(8 * (i % 2) + e.row_lane % 8) * 16 + 8 * (i / 2) + e.element] =
              static_cast<std::uint16_t>(in[static_cast<std::size_t>((b * 32 + t) * 4 + i)] >> (16 * half));
        }
    for (int t = 0; t < 32; ++t)
      for (int i = 0; i < 4; ++i) {
        std::uint32_t want = 0;
        if (!whole_tile) {
          want = i < count ? in[static_cast<std::size_t>((b * 32 + t) * 4 + i)] : 0;
        } else {
          for (int half = 0; half < 2; ++half) {
            const ldmatrix_element e = ldmatrix_source(t, i, half, false);
            want |= std::uint32_t{tile[(8 * (i % 2) + e.row_lane % 8) * 16 + 8 * (i / 2) + e.element]} << (16 * half);
          }
        }
        const std::size_t at = static_cast<std::size_t>((b * 32 + t) * 4 + i);
        expect(what, at, out[at], want);
      }
  }
  TILESIM_HIP_CHECK(hipFree(d_in));
  TILESIM_HIP_CHECK(hipFree(d_out));
  std::printf("%s: %d tiles checked\n", what, grid);
}

// mma_tile: D = A * B + C with integer-valued fp16 inputs (exact in fp32), against the rules' positions; with
// bf16, integers times powers of two up to 2^20 (exact in bfloat16, beyond fp16's range: the bf16 reading shows).
void check_mma(bool bf16) {
  const int grid = 3;
  auto bf16_of = [](float v) { std::uint32_t u; std::memcpy(&u, &v, 4); return static_cast<std::uint16_t>(u >> 16); };
  auto half_of = [](int v) -> std::uint16_t {  // exact for |v| <= 2048
    if (v == 0) return 0;
    const std::uint16_t sign = v < 0 ? 0x8000 : 0;
    unsigned m = static_cast<unsigned>(v < 0 ? -v : v);
    int e = 0;
    while (m >= 2048) m >>= 1, ++e;
    while (m < 1024) m <<= 1, --e;
    return static_cast<std::uint16_t>(sign | ((e + 25) << 10) | (m & 0x3ff));
  };
  std::vector<std::uint16_t> a(grid * 256), b(grid * 128);
  std::vector<float> c(grid * 128);
  for (std::size_t k = 0; k < a.size(); ++k)
    a[k] = bf16 ? bf16_of(static_cast<float>(static_cast<int>(k * 7 % 9) - 4) * (k % 5 == 0 ? 256.0f : 1.0f))
                : half_of(static_cast<int>(k * 7 % 9) - 4);
  for (std::size_t k = 0; k < b.size(); ++k)
    b[k] = bf16 ? bf16_of(static_cast<float>(static_cast<int>(k * 5 % 7) - 3) * 0.25f) : half_of(static_cast<int>(k * 5 % 7) - 3);
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<float>(static_cast<int>(k % 11) - 5);
  const auto value = bf16 ? bf16_to_float : half_to_float;
  std::uint16_t* d_a = upload(a);
  std::uint16_t* d_b = upload(b);
  float* d_c = upload(c);
  float* d_d = upload(std::vector<float>(grid * 128, -1.0f));
  gpu::kernel_args args;
  void* p[4] = {d_a, d_b, d_c, d_d};
  const index_t bytes[4] = {grid * 512, grid * 256, grid * 512, grid * 512};
  for (int k = 0; k < 4; ++k) args.pointer[k] = p[k], args.bytes[k] = bytes[k];
  args.slots = 4;
  if (bf16)
    gpu::mma_tile_bf16_kernel<<<grid, 32>>>(args);
  else
    gpu::mma_tile_kernel<<<grid, 32>>>(args);
  TILESIM_HIP_CHECK(hipGetLastError());
  TILESIM_HIP_CHECK(hipDeviceSynchronize());
  const std::vector<float> out = download(d_d, grid * 128);
  for (int blk = 0; blk < grid; ++blk)
    for (int lane = 0; lane < 32; ++lane)
      for (int reg = 0; reg < 4; ++reg) {
        const matrix_position at = mma_c_position(lane, reg);
        float want = c[static_cast<std::size_t>(blk * 128 + at.row * 8 + at.col)];
        for (int k = 0; k < 16; ++k) {
          // A (row, k) and B (k, col) through the rules: the lane and slot that hold them.
          want += value(a[static_cast<std::size_t>(blk * 256 + at.row * 16 + k)]) *
                  value(b[static_cast<std::size_t>(blk * 128 + at.col * 16 + k)]);
        }
        std::uint32_t got_bits, want_bits;
        const float got = out[static_cast<std::size_t>(blk * 128 + at.row * 8 + at.col)];
        std::memcpy(&got_bits, &got, 4);
        std::memcpy(&want_bits, &want, 4);
        expect(bf16 ? "mma m16n8k16 bf16" : "mma m16n8k16", static_cast<std::size_t>(blk * 128 + at.row * 8 + at.col), got_bits, want_bits);
      }
  for (void* q : p) TILESIM_HIP_CHECK(hipFree(q));
  std::printf("mma m16n8k16%s: %d tiles checked\n", bf16 ? " bf16" : "", grid);
}

}  // namespace

int main() {
  try {
    check_warp_scan();
    check_ldmatrix(false);
    check_ldmatrix(true);
    for (int count : {1, 2, 4})
      for (bool trans : {false, true})
        for (bool whole_tile : {false, true}) check_stmatrix(count, trans, whole_tile);
    check_mma(false);
    check_mma(true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "collectives_check: %s\n", e.what());
    return 2;
  }
  std::printf("collectives: %lld words compared, %lld differ\n", compared, differ);
  return differ == 0 ? 0 : 1;
}
