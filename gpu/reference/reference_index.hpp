// tilesim/gpu/reference/reference_index.hpp: the index math of the hand-written reference kernels, in plain ints.
//
// DEFINITION. The reference kernels (reference_kernels.cuh) are the tilesim programs written the way one
// writes a CUDA kernel by hand: every index is a line of int arithmetic below, every size a compile-time
// constant (a *_config struct used as a template parameter), no descriptor, encoding or tile window. This
// header is what they compute with; it includes nothing, so the same functions run in the kernels and on
// the host, where reference_index.test.cpp holds them to spec/ and the simulator for every catalogue point.
// A (warp, lane) is thread / warp_size, thread % warp_size; offsets are in elements unless a name says bytes.
//
//   access patterns (a thread's i-th vector of a rows x cols tile, `vector` elements along a row):
//     warp_raked       X0 = cols/vector lanes across a row, RPW = warp_size/X0 rows per warp and pass,
//                      IT = rows/(RPW*warps) passes:  row = warp*IT*RPW + i*RPW + lane/X0, col = vector*(lane%X0)
//     lanes_down_rows  the same split with the lane's low part on the rows:
//                      row = warp*IT*RPW + i*RPW + lane%RPW,  col = vector*(lane/RPW)
//     gemm_operand     R = lane_rows, G = warp_size/R, KG = cols/(G*vector), MI = rows/(R*warps), i = mi*KG + kg:
//                      row = (mi*warps + warp)*R + lane%R,  col = vector*(kg*G + lane/R)
//     ldmatrix_operand gemm_operand's addresses with R = 16 (wave 32, vector 8) as ldmatrix.x4 rows; register j
//                      of read i then holds (row0 + 8*(j%2) + lane/4, col0 + 8*(j/2) + 2*(lane%4) + 0..1),
//                      row0 = (mi*warps + warp)*16, col0 = 16*kg: stored as 4 bytes (mma's A fragment)
//   LDS layouts (offset of tile element (r, c)):
//     row_major        r*cols + c
//     padded           r*(cols + pad) + c
//     ck_xor           L layers, K0 = cols/KPack, m' = r/L, l = r%L, k0 = c/KPack:
//                      s = l*K0 + k0 (2025) or k0*L + l (2024);  (s ^ (m' % (K0*L)))*KPack + m'*cols*L + c%KPack
//     cute_swizzle     o = r*cols + c;  o ^ ((o >> S) & (((1 << B) - 1) << M))        (S >= 0)
//   GEMM fragments (lm = lane%8, ln = lane/8, lanes_n = warp_size/8, mw = warp/n_warps, nw = warp%n_warps):
//     A row  32*(mi*m_warps + mw) + 8*i + lm         B row (= C column)  4*lanes_n*(ni*n_warps + nw) + lanes_n*j + ln
//   Morton: ((y/T)*(W/T) + x/T)*T*T + interleave(y%T, x%T) (column bit b at bit 2b, row bit b at 2b + 1)
//   convolution: output o -> (m, co) = (o/COut, o%COut), m -> (n, ho, wo); k -> (r, s, c) = (k/(S*CIn),
//     k/CIn % S, k % CIn); input ((n*H + ho*sh + r*dh - ph)*W + wo*sw + s*dw - pw)*CIn + c, weights co*K + k;
//     without padding every window pixel is inside the image (conv_always_inside, a constant the kernels use)
//
// WORKED EXAMPLE. copy fp16 64 x 32, vector 8, 256 threads, wave 32, lanes_down_rows: X0 = 4, RPW = 8,
// IT = 1. Thread 45 (warp 1, lane 13) writes row 1*8 + 13/4 = 11, cols 8*(13%4) = 8..15, and reads row
// 8 + 13%8 = 13, cols 8*(13/8) = 8..15. ck_xor (fp16, 32 banks: L = 128/32/2 = 2, K0 = 4, KPack 8) puts
// (13, 8) at m' = 6, l = 1, k0 = 1, s = 5, (5 ^ 6)*8 + 6*64 + 0 = 408; row_major at 13*32 + 8 = 424;
// padded (pad 8) at 13*40 + 8 = 528; cute_swizzle Swizzle<2,3,2> at 424 ^ ((424 >> 2) & 0x18) = 424 ^ 8 = 416.
//
// INVARIANTS (reference_index.test.cpp): for every catalogue point, every thread's sequence of accesses built
// from these functions (label, load/store, global/LDS, bytes, address, barrier interval) equals the one the
// simulator records for the tilesim program, and the data moved through it reproduces the program's output;
// every layout is a bijection of the tile onto its element space (lds_elements); no function reads memory.
#pragma once

#if defined(__CUDACC__)
#define TILESIM_REFERENCE_HD __host__ __device__
#else
#define TILESIM_REFERENCE_HD
#endif

namespace tilesim::gpu::reference {

// A tile coordinate: row, column (element units).
struct row_col {
  int row = 0, col = 0;
};

// log2 of a power of two, else -1: exact_log2_int(32) == 5.
TILESIM_REFERENCE_HD constexpr int exact_log2_int(int v) {
  if (v < 1 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((1 << k) < v) ++k;
  return k;
}

// v rounded up to a multiple of 16 (the LDS allocation granule of the simulator and device_context).
TILESIM_REFERENCE_HD constexpr int round_up_16(int v) { return (v + 15) / 16 * 16; }

// ---------------------------------------------------------------------------------------------------------
// Access patterns.

// Lanes across one row of the raked patterns: X0 = cols / vector.
TILESIM_REFERENCE_HD constexpr int raked_lanes_per_row(int cols, int vector) { return cols / vector; }
// Rows a warp covers in one pass: RPW = warp_size / X0.
TILESIM_REFERENCE_HD constexpr int raked_rows_per_warp(int warp_size, int cols, int vector) {
  return warp_size / raked_lanes_per_row(cols, vector);
}
// Passes (vectors) per thread: IT = rows / (RPW * warps).
TILESIM_REFERENCE_HD constexpr int raked_iterations(int threads, int warp_size, int rows, int cols, int vector) {
  return rows / (raked_rows_per_warp(warp_size, cols, vector) * (threads / warp_size));
}

// CK's warp-raked pattern, vector i of (warp, lane): row = warp*IT*RPW + i*RPW + lane/X0, col = vector*(lane%X0).
TILESIM_REFERENCE_HD constexpr row_col warp_raked(int threads, int warp_size, int rows, int cols, int vector, int warp,
                                                  int lane, int i) {
  const int x0 = raked_lanes_per_row(cols, vector), rpw = warp_size / x0;
  const int it = raked_iterations(threads, warp_size, rows, cols, vector);
  return {warp * it * rpw + i * rpw + lane / x0, vector * (lane % x0)};
}

// The lanes_down_rows read: as warp_raked, lane = column strip * RPW + row: row = ... + lane%RPW, col = vector*(lane/RPW).
TILESIM_REFERENCE_HD constexpr row_col lanes_down_rows(int threads, int warp_size, int rows, int cols, int vector,
                                                       int warp, int lane, int i) {
  const int rpw = raked_rows_per_warp(warp_size, cols, vector);
  const int it = raked_iterations(threads, warp_size, rows, cols, vector);
  return {warp * it * rpw + i * rpw + lane % rpw, vector * (lane / rpw)};
}

// Reads per thread of the gemm_operand pattern: MI * KG = rows/(R*warps) * cols/((warp_size/R)*vector).
TILESIM_REFERENCE_HD constexpr int operand_accesses(int threads, int warp_size, int rows, int cols, int vector,
                                                    int lane_rows) {
  const int groups = warp_size / lane_rows, warps = threads / warp_size;
  return (rows / (lane_rows * warps)) * (cols / (groups * vector));
}

// The gemm_operand read, vector i = mi*KG + kg: row = (mi*warps + warp)*R + lane%R, col = vector*(kg*G + lane/R).
TILESIM_REFERENCE_HD constexpr row_col operand_read(int threads, int warp_size, int rows, int cols, int vector,
                                                    int lane_rows, int warp, int lane, int i) {
  const int groups = warp_size / lane_rows, warps = threads / warp_size;
  const int k_groups = cols / (groups * vector);
  const int mi = i / k_groups, kg = i % k_groups;
  (void)rows;
  return {(mi * warps + warp) * lane_rows + lane % lane_rows, vector * (kg * groups + lane / lane_rows)};
}

// Register j of ldmatrix_operand read i (PTX ldmatrix.x4 with the R = 16 row addresses): its two elements
// start at row0 + 8*(j%2) + lane/4, col0 + 8*(j/2) + 2*(lane%4); ldmatrix_register_at(256, 32, 32, 0, 5, 0, 1) == {9, 2}.
TILESIM_REFERENCE_HD constexpr row_col ldmatrix_register_at(int threads, int warp_size, int cols, int warp, int lane,
                                                            int i, int j) {
  const row_col first = operand_read(threads, warp_size, 0, cols, 8, 16, warp, 0, i);  // lane 0: row0, col0
  return {first.row + 8 * (j % 2) + lane / 4, first.col + 8 * (j / 2) + 2 * (lane % 4)};
}

// ---------------------------------------------------------------------------------------------------------
// LDS layouts.

enum class lds_kind : int { row_major, padded, ck_xor, cute_swizzle };

// One LDS tile layout with every parameter resolved (no "derive" values): a structural template argument.
struct lds_layout {
  lds_kind kind = lds_kind::row_major;
  int rows = 0, cols = 0;                   // the tile (M x K for a GEMM operand)
  int pad = 0;                              // padded: elements added to each row
  int ck_k_pack = 0, ck_layers = 0;         // ck_xor: KPack, MLdsLayer L
  bool ck_2024 = false;                     // ck_xor: CK's 2024 unmerge order (K0, L) instead of 2025's (L, K0)
  int sw_bits = 0, sw_base = 0, sw_shift = 0;  // cute_swizzle: Swizzle<B, M, S>, S >= 0
  constexpr bool operator==(const lds_layout&) const = default;
};

// Padded row-major: r*(cols + pad) + c.
TILESIM_REFERENCE_HD constexpr int padded_offset(int r, int c, int cols, int pad) { return r * (cols + pad) + c; }

// CK's MLdsLayer: max(1, banks*4 / KPerBlock / element_bytes); ck_lds_layers(32, 32, 2) == 2.
TILESIM_REFERENCE_HD constexpr int ck_lds_layers(int banks, int k_per_block, int element_bytes) {
  const int derived = banks * 4 / k_per_block / element_bytes;
  return derived > 1 ? derived : 1;
}

// CK's XOR-preshuffled offset of (m, k): see the essay; ck_xor_offset(3, 8, 32, 8, 2, true) == 80 (2024 order).
TILESIM_REFERENCE_HD constexpr int ck_xor_offset(int m, int k, int k_per_block, int k_pack, int layers, bool order_2024) {
  const int k0s = k_per_block / k_pack;
  const int mp = m / layers, l = m % layers, k0 = k / k_pack;
  const int s = order_2024 ? k0 * layers + l : l * k0s + k0;
  return (s ^ (mp % (k0s * layers))) * k_pack + mp * (k_per_block * layers) + k % k_pack;
}

// CuTe's Swizzle<B, M, S> (S >= 0) of offset o: the B bits at M+S XOR-ed into the B bits at M.
TILESIM_REFERENCE_HD constexpr int cute_swizzle(int o, int bits, int base, int shift) {
  return o ^ ((o >> shift) & (((1 << bits) - 1) << base));
}

// Element offset of tile element (r, c) in layout d.
TILESIM_REFERENCE_HD constexpr int lds_offset(const lds_layout& d, int r, int c) {
  switch (d.kind) {
    case lds_kind::row_major: return r * d.cols + c;
    case lds_kind::padded: return padded_offset(r, c, d.cols, d.pad);
    case lds_kind::ck_xor: return ck_xor_offset(r, c, d.cols, d.ck_k_pack, d.ck_layers, d.ck_2024);
    case lds_kind::cute_swizzle: return cute_swizzle(r * d.cols + c, d.sw_bits, d.sw_base, d.sw_shift);
  }
  return 0;
}

// Elements the layout spans (its allocation): rows*cols, or (rows-1)*(cols+pad) + cols when padded.
TILESIM_REFERENCE_HD constexpr int lds_elements(const lds_layout& d) {
  return d.kind == lds_kind::padded ? (d.rows - 1) * (d.cols + d.pad) + d.cols : d.rows * d.cols;
}

// ---------------------------------------------------------------------------------------------------------
// The copy program (kernel/copy/copy.hpp): global -> LDS -> global, one workgroup per rows x cols tile.

enum class read_kind : int { same_as_write, lanes_down_rows, gemm_operand, ldmatrix_operand };

struct copy_config {
  int element_bytes = 2;           // 2 (fp16 bits) or 4 (fp32 bits)
  int threads = 256, warp_size = 32;
  int rows = 64, cols = 32, vector = 8;
  read_kind read = read_kind::lanes_down_rows;
  int lane_rows = 16;              // gemm_operand: R (0 for the other reads)
  lds_layout lds{};                // rows x cols
  constexpr bool operator==(const copy_config&) const = default;

  // Bytes of one vector access: 16 for fp16 x 8 and fp32 x 4.
  TILESIM_REFERENCE_HD constexpr int vector_bytes() const { return vector * element_bytes; }
  // Vectors a thread writes (global load, LDS store): the warp-raked IT.
  TILESIM_REFERENCE_HD constexpr int write_accesses() const {
    return raked_iterations(threads, warp_size, rows, cols, vector);
  }
  // Vectors a thread reads back (LDS load, global store).
  TILESIM_REFERENCE_HD constexpr int read_accesses() const {
    return read == read_kind::gemm_operand || read == read_kind::ldmatrix_operand
               ? operand_accesses(threads, warp_size, rows, cols, vector, lane_rows)
               : write_accesses();
  }
  // Tile element of the thread's write vector i.
  TILESIM_REFERENCE_HD constexpr row_col write_at(int warp, int lane, int i) const {
    return warp_raked(threads, warp_size, rows, cols, vector, warp, lane, i);
  }
  // Tile element of the thread's read vector i.
  TILESIM_REFERENCE_HD constexpr row_col read_at(int warp, int lane, int i) const {
    switch (read) {
      case read_kind::same_as_write: break;
      case read_kind::lanes_down_rows: return lanes_down_rows(threads, warp_size, rows, cols, vector, warp, lane, i);
      case read_kind::gemm_operand:
      case read_kind::ldmatrix_operand:  // the ldmatrix row address lane supplies
        return operand_read(threads, warp_size, rows, cols, vector, lane_rows, warp, lane, i);
    }
    return write_at(warp, lane, i);
  }
  // Dynamic LDS of the launch: the layout's element space.
  TILESIM_REFERENCE_HD constexpr int lds_bytes() const { return lds_elements(lds) * element_bytes; }
};

// ---------------------------------------------------------------------------------------------------------
// The LDS sweep (kernel/lds_sweep/lds_sweep.hpp): one 32-bit vector per thread, read `iterations` times.

struct sweep_config {
  copy_config tile{};    // element_bytes 4; rows*cols == threads*vector (one write and one read vector each)
  int iterations = 1024;
  constexpr bool operator==(const sweep_config&) const = default;
};

// ---------------------------------------------------------------------------------------------------------
// The GEMM tile (kernel/gemm_tile/gemm_tile.hpp): C (m x n) = A (m x k) * B^T (B n x k), fp32, K-major operands.

inline constexpr int gemm_lanes_m = 8;   // lanes down the rows of a warp tile
inline constexpr int gemm_per_lane = 4;  // a lane's 4 x 4 block of C

struct gemm_config {
  int threads = 256, warp_size = 32;
  int m = 128, n = 128, k = 64;
  int m_per_block = 64, n_per_block = 64, k_per_block = 32;
  int vector = 4, m_warps = 2;
  lds_kind layout = lds_kind::ck_xor;  // row_major, padded or ck_xor (A and B alike)
  int pad = 4;                         // padded: resolved (> 0)
  int ck_banks = 32;
  constexpr bool operator==(const gemm_config&) const = default;

  TILESIM_REFERENCE_HD constexpr int warps() const { return threads / warp_size; }
  TILESIM_REFERENCE_HD constexpr int lanes_n() const { return warp_size / gemm_lanes_m; }
  TILESIM_REFERENCE_HD constexpr int n_warps() const { return warps() / m_warps; }
  // Warp tiles per warp along M (32 rows each) and N (4*lanes_n columns each).
  TILESIM_REFERENCE_HD constexpr int m_iter() const { return m_per_block / (m_warps * gemm_per_lane * gemm_lanes_m); }
  TILESIM_REFERENCE_HD constexpr int n_iter() const { return n_per_block / (n_warps() * gemm_per_lane * lanes_n()); }
  // K vectors per step.
  TILESIM_REFERENCE_HD constexpr int k_iter() const { return k_per_block / vector; }
  TILESIM_REFERENCE_HD constexpr int blocks_n() const { return n / n_per_block; }
  TILESIM_REFERENCE_HD constexpr int grid() const { return (m / m_per_block) * blocks_n(); }
  // Vectors of the warp-raked copy of A (M x KPerBlock) and B (N x KPerBlock) per thread and step.
  TILESIM_REFERENCE_HD constexpr int a_copies() const {
    return raked_iterations(threads, warp_size, m_per_block, k_per_block, vector);
  }
  TILESIM_REFERENCE_HD constexpr int b_copies() const {
    return raked_iterations(threads, warp_size, n_per_block, k_per_block, vector);
  }
  // The LDS tile of an operand with `rows` rows (4-byte elements).
  TILESIM_REFERENCE_HD constexpr lds_layout operand_lds(int rows) const {
    lds_layout d;
    d.kind = layout;
    d.rows = rows;
    d.cols = k_per_block;
    d.pad = layout == lds_kind::padded ? pad : 0;
    if (layout == lds_kind::ck_xor) {
      d.ck_k_pack = vector;
      d.ck_layers = ck_lds_layers(ck_banks, k_per_block, 4);
    }
    return d;
  }
  TILESIM_REFERENCE_HD constexpr lds_layout a_lds() const { return operand_lds(m_per_block); }
  TILESIM_REFERENCE_HD constexpr lds_layout b_lds() const { return operand_lds(n_per_block); }
  // B's LDS tile starts after A's, at a 16-byte boundary (bytes).
  TILESIM_REFERENCE_HD constexpr int b_lds_byte() const { return round_up_16(lds_elements(a_lds()) * 4); }
  TILESIM_REFERENCE_HD constexpr int lds_bytes() const { return b_lds_byte() + lds_elements(b_lds()) * 4; }
  // Row of the thread's A fragment (mi, i): 32*(mi*m_warps + mw) + 8*i + lm.
  TILESIM_REFERENCE_HD constexpr int a_row(int warp, int lane, int mi, int i) const {
    return gemm_per_lane * gemm_lanes_m * (mi * m_warps + warp / n_warps()) + gemm_lanes_m * i + lane % gemm_lanes_m;
  }
  // Row of the thread's B fragment (ni, j), which is also its C column: 4*lanes_n*(ni*n_warps + nw) + lanes_n*j + ln.
  TILESIM_REFERENCE_HD constexpr int b_row(int warp, int lane, int ni, int j) const {
    return gemm_per_lane * lanes_n() * (ni * n_warps() + warp % n_warps()) + lanes_n() * j + lane / gemm_lanes_m;
  }
};

// acc[mi][ni][i][j] += Σ_{ki, e} a[mi][i][ki*vector + e] * b[ni][j][ki*vector + e], in the program's order
// (mi, i, ni, j outer; k ascending inside), so the sums round exactly as the simulator's do.
template <gemm_config C, class A, class B, class Acc>
TILESIM_REFERENCE_HD constexpr void gemm_accumulate(const A& a, const B& b, Acc& acc) {
  for (int mi = 0; mi < C.m_iter(); ++mi)
    for (int i = 0; i < gemm_per_lane; ++i)
      for (int ni = 0; ni < C.n_iter(); ++ni)
        for (int j = 0; j < gemm_per_lane; ++j) {
          float sum = acc[mi][ni][i][j];
          for (int kk = 0; kk < C.k_per_block; ++kk) sum += a[mi][i][kk] * b[ni][j][kk];
          acc[mi][ni][i][j] = sum;
        }
}

// ---------------------------------------------------------------------------------------------------------
// The Morton read (kernel/morton/morton.hpp).

enum class morton_staging : int { direct, lds_row_major, lds_morton };

struct morton_config {
  int height = 64, width = 64, tile = 8;  // H x W fp32 texels, Morton tile side T
  int fh = 8, fw = 4;                     // footprint rows x cols: one texel per lane
  bool morton_input = true;               // the input is Morton-tiled (else row-major)
  morton_staging staging = morton_staging::direct;
  int threads = 256, warp_size = 32;
  constexpr bool operator==(const morton_config&) const = default;

  TILESIM_REFERENCE_HD constexpr int waves() const { return threads / warp_size; }
  // Footprints each wave reads in its band: (W / fw) / waves.
  TILESIM_REFERENCE_HD constexpr int passes() const { return width / fw / waves(); }
  // One workgroup per band of fh rows.
  TILESIM_REFERENCE_HD constexpr int grid() const { return height / fh; }
  // Band texels each thread moves out of LDS (staged): fh * W / threads, exact.
  TILESIM_REFERENCE_HD constexpr int band_reads() const { return fh * width / threads; }
  TILESIM_REFERENCE_HD constexpr int lds_bytes() const { return staging == morton_staging::direct ? 0 : fh * width * 4; }
};

// Bits 0..15 of v spread to the even bit positions: spread_bits_int(0b111) == 0b010101.
TILESIM_REFERENCE_HD constexpr int spread_bits_int(int v) {
  v &= 0xFFFF;
  v = (v | (v << 8)) & 0x00FF00FF;
  v = (v | (v << 4)) & 0x0F0F0F0F;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v;
}

// Morton-tiled offset of (y, x) in an image `width` wide with tiles of 2^tile_bits: tiles row-major, Z order inside.
TILESIM_REFERENCE_HD constexpr int morton_tiled_offset(int y, int x, int width, int tile_bits) {
  const int mask = (1 << tile_bits) - 1;
  const int tile_index = (y >> tile_bits) * (width >> tile_bits) + (x >> tile_bits);
  return (tile_index << (2 * tile_bits)) | spread_bits_int(x & mask) | (spread_bits_int(y & mask) << 1);
}

// Where texel (y, x) of the image is stored in the input.
TILESIM_REFERENCE_HD constexpr int morton_input_offset(const morton_config& c, int y, int x) {
  return c.morton_input ? morton_tiled_offset(y, x, c.width, exact_log2_int(c.tile)) : y * c.width + x;
}

// Word of band texel (r, c) in the LDS band: row-major or Morton-tiled with the image's tile.
TILESIM_REFERENCE_HD constexpr int morton_band_offset(const morton_config& c, int r, int col) {
  return c.staging == morton_staging::lds_morton ? morton_tiled_offset(r, col, c.width, exact_log2_int(c.tile))
                                                 : r * c.width + col;
}

// ---------------------------------------------------------------------------------------------------------
// The convolution (kernel/conv/conv.hpp): NHWC input, KRSC weights, NHWK output, one output per thread.

enum class conv_kind : int { naive, sliding, im2col };

struct conv_config {
  conv_kind mode = conv_kind::naive;
  int n = 1, h = 6, w = 6, c_in = 1, c_out = 1, r = 3, s = 3;
  int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, pad_h = 0, pad_w = 0;
  int vector = 1;       // im2col: floats per A/B access
  int k_per_block = 3;  // im2col: resolved K step (S*CIn when the params say 0)
  int threads = 16, warp_size = 32;
  constexpr bool operator==(const conv_config&) const = default;

  TILESIM_REFERENCE_HD constexpr int ho() const { return (h + 2 * pad_h - dilation_h * (r - 1) - 1) / stride_h + 1; }
  TILESIM_REFERENCE_HD constexpr int wo() const { return (w + 2 * pad_w - dilation_w * (s - 1) - 1) / stride_w + 1; }
  TILESIM_REFERENCE_HD constexpr int gemm_k() const { return r * s * c_in; }
  TILESIM_REFERENCE_HD constexpr int outputs() const { return n * ho() * wo() * c_out; }
  TILESIM_REFERENCE_HD constexpr int grid() const { return outputs() / threads; }
};

// The input pixel row of output row ho and filter row r: ho*sh + r*dh - ph (may be outside [0, H)).
TILESIM_REFERENCE_HD constexpr int conv_in_h(const conv_config& c, int ho, int r) {
  return ho * c.stride_h + r * c.dilation_h - c.pad_h;
}
// The input pixel column of output column wo and filter column s: wo*sw + s*dw - pw.
TILESIM_REFERENCE_HD constexpr int conv_in_w(const conv_config& c, int wo, int s) {
  return wo * c.stride_w + s * c.dilation_w - c.pad_w;
}
// Whether input pixel (hi, wi) is inside the image (outside reads as 0).
TILESIM_REFERENCE_HD constexpr bool conv_inside(const conv_config& c, int hi, int wi) {
  return hi >= 0 && hi < c.h && wi >= 0 && wi < c.w;
}
// Whether every window pixel of every output is inside the image, so that conv_inside holds for all of them:
// exactly when there is no padding (hi = ho*sh + r*dh <= (Ho-1)*sh + (R-1)*dh <= H-1, likewise wi).
TILESIM_REFERENCE_HD constexpr bool conv_always_inside(const conv_config& c) { return c.pad_h == 0 && c.pad_w == 0; }
// NHWC offset of input (n, hi, wi, ch).
TILESIM_REFERENCE_HD constexpr int conv_input_offset(const conv_config& c, int n, int hi, int wi, int ch) {
  return ((n * c.h + hi) * c.w + wi) * c.c_in + ch;
}
// KRSC offset of weight (co, r, s, ch) = co*K + k.
TILESIM_REFERENCE_HD constexpr int conv_weight_offset(const conv_config& c, int co, int r, int s, int ch) {
  return ((co * c.r + r) * c.s + s) * c.c_in + ch;
}

// ---------------------------------------------------------------------------------------------------------
// The scalar transpose (fp32 n x n, 32 x 32 tiles through LDS rows of 33 floats, 256 threads).

inline constexpr int transpose_tile = 32, transpose_lds_row = 33, transpose_threads = 256, transpose_steps = 4;

// Input element of thread t's step i in block b: in[(by*32 + row)*n + bx*32 + col], row = t/32 + 8i, col = t%32.
TILESIM_REFERENCE_HD constexpr int transpose_load_offset(int n, int b, int t, int i) {
  const int tiles = n / transpose_tile, by = b / tiles, bx = b % tiles;
  return (by * transpose_tile + t / transpose_tile + 8 * i) * n + bx * transpose_tile + t % transpose_tile;
}
// LDS word it stores to: row*33 + col.
TILESIM_REFERENCE_HD constexpr int transpose_lds_store(int t, int i) {
  return (t / transpose_tile + 8 * i) * transpose_lds_row + t % transpose_tile;
}
// LDS word it reads after the barrier: col*33 + row.
TILESIM_REFERENCE_HD constexpr int transpose_lds_load(int t, int i) {
  return (t % transpose_tile) * transpose_lds_row + t / transpose_tile + 8 * i;
}
// Output element it writes: out[(bx*32 + row)*n + by*32 + col].
TILESIM_REFERENCE_HD constexpr int transpose_store_offset(int n, int b, int t, int i) {
  const int tiles = n / transpose_tile, by = b / tiles, bx = b % tiles;
  return (bx * transpose_tile + t / transpose_tile + 8 * i) * n + by * transpose_tile + t % transpose_tile;
}
// Dynamic LDS of the transpose: 32 rows of 33 floats.
inline constexpr int transpose_lds_bytes = transpose_tile * transpose_lds_row * 4;

}  // namespace tilesim::gpu::reference
