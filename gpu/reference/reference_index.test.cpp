// tilesim/gpu/reference/reference_index.test.cpp: the hand-written kernels compute the tilesim programs' algorithm.
//
// CI has no GPU, so the reference kernels are proved here, on the CPU, for every point of the cross-check
// catalogue. Each test's name states its law:
//   - every catalogue point has a compiled reference (has_reference) and every compiled configuration serves
//     a point (no dead kernel; the transpose's n list excepted); no configuration is listed twice
//   - the hand-written LDS offsets equal spec/'s descriptors (row_major / padded / ck_xor both orders /
//     cute_swizzle) on every element of every layout the kernels use, and each layout is a bijection onto
//     [0, lds_elements)
//   - the hand-written thread -> element maps equal spec/'s encodings (warp_raked, lanes_down_rows,
//     gemm_operand; the GEMM's A, B and C fragments) for every thread and access; the Morton and im2col offsets
//     equal examples/' descriptors on every texel and (m, k)
//   - THE STRONG ONE: a CPU emulation of each reference kernel, written access for access like its body in
//     reference_kernels.cuh and using the same reference_index.hpp functions and the same template constants
//     (the configuration the kernel is instantiated with, found through reference_match.hpp), makes the
//     accesses the simulator records for the tilesim program (crosscheck's simulate()): per workgroup, per wave,
//     per instruction the same label, load/store, global/LDS, bytes per lane, barrier interval and per-lane
//     address; the same LDS allocation size; and the data it moves give the program's output (bit for bit
//     where no float sums are involved, and check_output passes for all)
//   - conv_always_inside (the kernels' compile-time "no padding: every window pixel is inside") implies
//     conv_inside for every output and filter tap, and every catalogue convolution has it
//   - the transpose twin: out = in^T, every element written once, its 33-float LDS rows make each warp's LDS
//     store and load touch 32 distinct banks, and (where kernel/transpose/transpose.hpp exists) its accesses are
//     the simulator's for the tilesim transpose program, as above
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "kernel/morton/morton.hpp"
#include "kernel/conv/conv.hpp"
#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/reference/reference_index.hpp"
#include "gpu/reference/reference_instances.hpp"
#include "gpu/reference/reference_match.hpp"
#include "gpu/reference/reference_run.hpp"
#include "sim/engine/engine.hpp"
#include "kernel/model/ldmatrix.hpp"
#include "kernel/model/mma.hpp"
#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"
#if __has_include("kernel/transpose/transpose.hpp")
#include "kernel/transpose/transpose.hpp"
#define TILESIM_REFERENCE_HAS_TRANSPOSE_PROGRAM 1
#endif
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/row_major.hpp"

namespace {

using namespace tilesim;
using namespace tilesim::gpu;
using namespace tilesim::gpu::reference;

// ---------------------------------------------------------------------------------------------------------
// Helpers.

// Calls f.template operator()<List[I]>() for the entry I == index of List (a compile-time configuration, as the
// kernels get it).
template <const auto& List, class F, std::size_t... I>
void with_entry_impl(int index, F& f, std::index_sequence<I...>) {
  ((index == static_cast<int>(I) ? (f.template operator()<List[I]>(), 0) : 0), ...);
}
template <const auto& List, class F>
void with_entry(int index, F&& f) {
  with_entry_impl<List>(index, f, std::make_index_sequence<std::size(List)>{});
}

// One access of one thread, as the kernel makes it.
struct ref_access {
  const char* label;
  sim::access_kind kind;
  sim::memory_space space;
  int width;       // bytes
  int slot;        // global slot; -1 on LDS
  long long byte;  // byte offset in the slot's buffer, or the LDS byte address
  int interval;    // barriers passed
};

using thread_trace = std::vector<ref_access>;
using block_trace = std::vector<thread_trace>;  // [thread]

// One workgroup of a reference kernel run on the CPU: the global buffers (shared by all workgroups), its LDS,
// each thread's accesses. Thread phases run one after another between barriers, which is all a race-free
// kernel needs; an access outside its buffer fails the test.
struct emulated_block {
  std::vector<byte_buffer>& global;
  std::vector<unsigned char> lds;
  block_trace threads;
  int interval = 0;

  emulated_block(std::vector<byte_buffer>& g, int block, int lds_bytes)
      : global(g), lds(static_cast<std::size_t>(lds_bytes)), threads(static_cast<std::size_t>(block)) {}

  void barrier() { ++interval; }
  void global_load(int t, const char* label, int slot, long long byte, int width, void* to) {
    access(t, label, sim::access_kind::load, sim::memory_space::global, slot, byte, width);
    std::memcpy(to, global[static_cast<std::size_t>(slot)].data() + byte, static_cast<std::size_t>(width));
  }
  void global_store(int t, const char* label, int slot, long long byte, int width, const void* from) {
    access(t, label, sim::access_kind::store, sim::memory_space::global, slot, byte, width);
    std::memcpy(global[static_cast<std::size_t>(slot)].data() + byte, from, static_cast<std::size_t>(width));
  }
  void lds_load(int t, const char* label, long long byte, int width, void* to) {
    access(t, label, sim::access_kind::load, sim::memory_space::lds, -1, byte, width);
    std::memcpy(to, lds.data() + byte, static_cast<std::size_t>(width));
  }
  void lds_store(int t, const char* label, long long byte, int width, const void* from) {
    access(t, label, sim::access_kind::store, sim::memory_space::lds, -1, byte, width);
    std::memcpy(lds.data() + byte, from, static_cast<std::size_t>(width));
  }

 private:
  void access(int t, const char* label, sim::access_kind kind, sim::memory_space space, int slot, long long byte,
              int width) {
    const std::size_t size = space == sim::memory_space::lds ? lds.size() : global.at(static_cast<std::size_t>(slot)).size();
    REQUIRE_MESSAGE(byte >= 0, label, " at byte ", byte);
    REQUIRE_MESSAGE(static_cast<std::size_t>(byte + width) <= size, label, " at byte ", byte, " + ", width,
                    " beyond its buffer of ", size);
    threads[static_cast<std::size_t>(t)].push_back({label, kind, space, width, slot, byte, interval});
  }
};

// Up to 16 bytes of one vector register.
using chunk = std::array<unsigned char, 16>;

// The first difference between the simulator's wave instructions and the reference's per-thread accesses,
// grouped the way the simulator groups them (the k-th access of every lane of a wave is instruction k); "" if none.
std::string first_difference(const sim::run_result& run, const std::vector<block_trace>& blocks, int wave_size) {
  if (run.workgroups.size() != blocks.size())
    return "the simulator ran " + std::to_string(run.workgroups.size()) + " workgroups, the reference " +
           std::to_string(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const sim::workgroup_record& wg = run.workgroups[b];
    const block_trace& threads = blocks[b];
    const std::size_t waves = (threads.size() + static_cast<std::size_t>(wave_size) - 1) / static_cast<std::size_t>(wave_size);
    if (wg.waves.size() != waves)
      return "block " + std::to_string(b) + ": " + std::to_string(wg.waves.size()) + " simulated waves, " +
             std::to_string(waves) + " in the reference";
    for (std::size_t w = 0; w < waves; ++w) {
      std::size_t count = 0;
      for (int l = 0; l < wave_size; ++l) {
        const std::size_t t = w * static_cast<std::size_t>(wave_size) + static_cast<std::size_t>(l);
        if (t < threads.size()) count = std::max(count, threads[t].size());
      }
      const auto& instructions = wg.waves[w].instructions;
      const std::string where = "block " + std::to_string(b) + " wave " + std::to_string(w);
      if (instructions.size() != count)
        return where + ": the simulator has " + std::to_string(instructions.size()) + " instructions, the reference " +
               std::to_string(count);
      for (std::size_t k = 0; k < count; ++k) {
        const sim::wave_instruction& in = instructions[k];
        const std::string at = where + " instruction " + std::to_string(k) + " (\"" + in.access.label + "\")";
        if (static_cast<int>(in.access.address.size()) != wave_size) return at + ": not one address per lane";
        for (int l = 0; l < wave_size; ++l) {
          const std::size_t t = w * static_cast<std::size_t>(wave_size) + static_cast<std::size_t>(l);
          const bool has = t < threads.size() && k < threads[t].size();
          sim::address_t want = sim::no_address;
          if (has) {
            const ref_access& a = threads[t][k];
            if (a.label != in.access.label || a.kind != in.access.kind || a.space != in.access.space ||
                a.width != in.access.width || a.interval != in.interval)
              return at + " lane " + std::to_string(l) + ": the reference does \"" + a.label + "\" (" +
                     (a.kind == sim::access_kind::load ? "load" : "store") + ", " +
                     (a.space == sim::memory_space::lds ? "LDS" : "global") + ", " + std::to_string(a.width) +
                     " B, interval " + std::to_string(a.interval) + "), the simulator " +
                     (in.access.kind == sim::access_kind::load ? "load" : "store") + ", " +
                     (in.access.space == sim::memory_space::lds ? "LDS" : "global") + ", " +
                     std::to_string(in.access.width) + " B, interval " + std::to_string(in.interval);
            want = static_cast<sim::address_t>(a.byte);
            if (a.space == sim::memory_space::global) want += run.memory.info(a.slot).base;
          }
          if (in.access.address[static_cast<std::size_t>(l)] != want)
            return at + " lane " + std::to_string(l) + ": simulator address " +
                   std::to_string(in.access.address[static_cast<std::size_t>(l)]) + ", reference " +
                   std::to_string(want);
        }
      }
    }
  }
  return "";
}

// ---------------------------------------------------------------------------------------------------------
// The emulations: each mirrors its body in reference_kernels.cuh, access for access (see the comments there):
// the same offsets from the same reference_index.hpp calls in the same order, the same barriers; where a body
// computes its offsets before its first access, the emulation computes each at its access (the same number).

template <copy_config C>
std::vector<block_trace> emulate_copy(const int* slots, int grid, std::vector<byte_buffer>& g) {
  constexpr int writes = C.write_accesses(), reads = C.read_accesses(), eb = C.element_bytes, vb = C.vector_bytes();
  std::vector<block_trace> out;
  for (int block = 0; block < grid; ++block) {
    emulated_block e(g, C.threads, C.lds_bytes());
    std::vector<std::array<chunk, writes>> staged(static_cast<std::size_t>(C.threads));
    std::vector<std::array<chunk, reads>> moved(static_cast<std::size_t>(C.threads));
    const int row0 = block * C.rows;
    for (int t = 0; t < C.threads; ++t) {
      const int warp = t / C.warp_size, lane = t % C.warp_size;
      for (int i = 0; i < writes; ++i) {
        const row_col x = C.write_at(warp, lane, i);
        e.global_load(t, "global load", slots[0], ((row0 + x.row) * C.cols + x.col) * eb, vb, staged[t][i].data());
      }
      for (int i = 0; i < writes; ++i) {
        const row_col x = C.write_at(warp, lane, i);
        e.lds_store(t, "lds store", lds_offset(C.lds, x.row, x.col) * eb, vb, staged[t][i].data());
      }
    }
    e.barrier();
    if constexpr (C.read == read_kind::ldmatrix_operand) {  // rows per lane, registers by PTX's rule, 4-byte stores
      for (int t = 0; t < C.threads; ++t)
        for (int i = 0; i < reads; ++i) {
          const row_col x = C.read_at(t / C.warp_size, t % C.warp_size, i);
          e.lds_load(t, "ldmatrix", lds_offset(C.lds, x.row, x.col) * eb, vb, moved[t][i].data());
        }
      for (int t = 0; t < C.threads; ++t) {
        const int warp = t / C.warp_size, lane = t % C.warp_size;
        for (int i = 0; i < reads; ++i)
          for (int j = 0; j < 4; ++j) {
            unsigned char reg[4];
            for (int half = 0; half < 2; ++half) {
              const ldmatrix_element src = ldmatrix_source(lane, j, half, false);
              const chunk& row = moved[static_cast<std::size_t>(warp * C.warp_size + src.row_lane)][i];
              reg[2 * half] = row[static_cast<std::size_t>(2 * src.element)];
              reg[2 * half + 1] = row[static_cast<std::size_t>(2 * src.element + 1)];
            }
            const row_col x = ldmatrix_register_at(C.threads, C.warp_size, C.cols, warp, lane, i, j);
            e.global_store(t, "global store", slots[1], ((row0 + x.row) * C.cols + x.col) * eb, 4, reg);
          }
      }
      out.push_back(std::move(e.threads));
      continue;
    }
    for (int t = 0; t < C.threads; ++t) {
      const int warp = t / C.warp_size, lane = t % C.warp_size;
      for (int i = 0; i < reads; ++i) {
        const row_col x = C.read_at(warp, lane, i);
        e.lds_load(t, "lds load", lds_offset(C.lds, x.row, x.col) * eb, vb, moved[t][i].data());
      }
      for (int i = 0; i < reads; ++i) {
        const row_col x = C.read_at(warp, lane, i);
        e.global_store(t, "global store", slots[1], ((row0 + x.row) * C.cols + x.col) * eb, vb, moved[t][i].data());
      }
    }
    out.push_back(std::move(e.threads));
  }
  return out;
}

template <sweep_config S>
std::vector<block_trace> emulate_sweep(const int* slots, int grid, std::vector<byte_buffer>& g) {
  constexpr copy_config C = S.tile;
  static_assert(C.element_bytes == 4 && C.vector == 4 && C.write_accesses() == 1 && C.read_accesses() == 1);
  std::vector<block_trace> out;
  for (int block = 0; block < grid; ++block) {
    emulated_block e(g, C.threads, C.lds_bytes());
    const int row0 = block * C.rows;
    for (int t = 0; t < C.threads; ++t) {
      const row_col w = C.write_at(t / C.warp_size, t % C.warp_size, 0);
      std::uint32_t v[4];
      e.global_load(t, "global load", slots[0], ((row0 + w.row) * C.cols + w.col) * 4, 16, v);
      e.lds_store(t, "lds store", lds_offset(C.lds, w.row, w.col) * 4, 16, v);
    }
    e.barrier();
    for (int t = 0; t < C.threads; ++t) {
      const row_col r = C.read_at(t / C.warp_size, t % C.warp_size, 0);
      std::uint32_t sum[4] = {}, x[4];
      for (int i = 0; i < S.iterations; ++i) {
        e.lds_load(t, "lds load", lds_offset(C.lds, r.row, r.col) * 4, 16, x);
        for (int j = 0; j < 4; ++j) sum[j] += x[j];
      }
      e.global_store(t, "global store", slots[1], ((row0 + r.row) * C.cols + r.col) * 4, 16, sum);
    }
    out.push_back(std::move(e.threads));
  }
  return out;
}

template <gemm_config C>
std::vector<block_trace> emulate_gemm(const int* slots, int grid, std::vector<byte_buffer>& g) {
  constexpr int mi_n = C.m_iter(), ni_n = C.n_iter(), kb = C.k_per_block, vec = C.vector, ki_n = C.k_iter();
  constexpr int a_copies = C.a_copies(), b_copies = C.b_copies(), vb = 4 * vec;
  constexpr lds_layout a_layout = C.a_lds(), b_layout = C.b_lds();
  struct accumulators {
    float v[mi_n][ni_n][gemm_per_lane][gemm_per_lane] = {};
  };
  struct a_fragment {
    float v[mi_n][gemm_per_lane][kb] = {};
  };
  struct b_fragment {
    float v[ni_n][gemm_per_lane][kb] = {};
  };
  std::vector<block_trace> out;
  for (int block = 0; block < grid; ++block) {
    emulated_block e(g, C.threads, C.lds_bytes());
    std::vector<accumulators> acc(static_cast<std::size_t>(C.threads));
    const int block_m = block / C.blocks_n() * C.m_per_block, block_n = block % C.blocks_n() * C.n_per_block;
    std::vector<a_fragment> a_of(static_cast<std::size_t>(C.threads));
    std::vector<b_fragment> b_of(static_cast<std::size_t>(C.threads));
    for (int k0 = 0; k0 < C.k; k0 += kb) {
      for (int t = 0; t < C.threads; ++t) {
        const int warp = t / C.warp_size, lane = t % C.warp_size;
        chunk a_staged[a_copies], b_staged[b_copies];
        for (int i = 0; i < a_copies; ++i) {
          const row_col x = warp_raked(C.threads, C.warp_size, C.m_per_block, kb, vec, warp, lane, i);
          e.global_load(t, "A global load", slots[0], ((block_m + x.row) * C.k + k0 + x.col) * 4, vb, a_staged[i].data());
        }
        for (int i = 0; i < b_copies; ++i) {
          const row_col x = warp_raked(C.threads, C.warp_size, C.n_per_block, kb, vec, warp, lane, i);
          e.global_load(t, "B global load", slots[1], ((block_n + x.row) * C.k + k0 + x.col) * 4, vb, b_staged[i].data());
        }
        for (int i = 0; i < a_copies; ++i) {
          const row_col x = warp_raked(C.threads, C.warp_size, C.m_per_block, kb, vec, warp, lane, i);
          e.lds_store(t, "A lds store", lds_offset(a_layout, x.row, x.col) * 4, vb, a_staged[i].data());
        }
        for (int i = 0; i < b_copies; ++i) {
          const row_col x = warp_raked(C.threads, C.warp_size, C.n_per_block, kb, vec, warp, lane, i);
          e.lds_store(t, "B lds store", C.b_lds_byte() + lds_offset(b_layout, x.row, x.col) * 4, vb, b_staged[i].data());
        }
      }
      e.barrier();
      for (int t = 0; t < C.threads; ++t) {
        const int warp = t / C.warp_size, lane = t % C.warp_size;
        auto& a = a_of[static_cast<std::size_t>(t)].v;
        auto& b = b_of[static_cast<std::size_t>(t)].v;
        for (int mi = 0; mi < mi_n; ++mi)
          for (int ki = 0; ki < ki_n; ++ki)
            for (int i = 0; i < gemm_per_lane; ++i)
              e.lds_load(t, "A lds load", lds_offset(a_layout, C.a_row(warp, lane, mi, i), ki * vec) * 4, vb,
                         &a[mi][i][ki * vec]);
        for (int ni = 0; ni < ni_n; ++ni)
          for (int ki = 0; ki < ki_n; ++ki)
            for (int j = 0; j < gemm_per_lane; ++j)
              e.lds_load(t, "B lds load", C.b_lds_byte() + lds_offset(b_layout, C.b_row(warp, lane, ni, j), ki * vec) * 4,
                         vb, &b[ni][j][ki * vec]);
      }
      if (k0 + kb < C.k) e.barrier();  // after the step's LDS loads, before its FMAs (registers only), as the kernel
      for (int t = 0; t < C.threads; ++t) gemm_accumulate<C>(a_of[static_cast<std::size_t>(t)].v, b_of[static_cast<std::size_t>(t)].v,
                                                          acc[static_cast<std::size_t>(t)].v);
    }
    for (int t = 0; t < C.threads; ++t) {
      const int warp = t / C.warp_size, lane = t % C.warp_size;
      for (int mi = 0; mi < mi_n; ++mi)
        for (int ni = 0; ni < ni_n; ++ni)
          for (int i = 0; i < gemm_per_lane; ++i)
            for (int j = 0; j < gemm_per_lane; ++j)
              e.global_store(t, "C global store", slots[2],
                             ((block_m + C.a_row(warp, lane, mi, i)) * C.n + block_n + C.b_row(warp, lane, ni, j)) * 4, 4,
                             &acc[static_cast<std::size_t>(t)].v[mi][ni][i][j]);
    }
    out.push_back(std::move(e.threads));
  }
  return out;
}

// The matrix-core GEMM: per warp, each lane's ldmatrix row is one 16-byte LDS load; the registers then follow
// PTX's rule (ldmatrix_source), and mma.sync adds A * B over k = 0..15 in fp32, k ascending (as the simulator;
// the catalogue's inputs make every order exact).
template <mma_gemm_config C>
std::vector<block_trace> emulate_mma_gemm(const int* slots, int grid, std::vector<byte_buffer>& g) {
  constexpr int mi_n = C.m_iter(), ni_n = C.n_iter(), ki_n = C.k_iter(), kb = C.k_per_block, ws = 32;
  constexpr int a_copies = C.a_copies(), b_copies = C.b_copies();
  constexpr lds_layout a_layout = C.a_lds(), b_layout = C.b_lds();
  static_assert(C.warp_size == ws);
  struct accumulators {
    float v[mi_n][ni_n][4] = {};
  };
  // The 16-bit element `e` of the 16-byte row `row` loaded by lane `l` of a warp.
  using rows = std::array<std::array<std::uint16_t, 8>, ws>;
  auto reg = [](const rows& r, int lane, int matrix) {  // lane's register of ldmatrix matrix `matrix`
    std::uint32_t v = 0;
    for (int half = 0; half < 2; ++half) {
      const ldmatrix_element e = ldmatrix_source(lane, matrix, half, false);
      v |= std::uint32_t{r[static_cast<std::size_t>(e.row_lane)][static_cast<std::size_t>(e.element)]} << (16 * half);
    }
    return v;
  };
  auto half_of = [](std::uint32_t r, int half) { return half_to_float(static_cast<std::uint16_t>(r >> (16 * half))); };
  std::vector<block_trace> out;
  for (int block = 0; block < grid; ++block) {
    emulated_block e(g, C.threads, C.lds_bytes());
    std::vector<accumulators> acc(static_cast<std::size_t>(C.threads));
    const int block_m = block / C.blocks_n() * C.m_per_block, block_n = block % C.blocks_n() * C.n_per_block;
    for (int k0 = 0; k0 < C.k; k0 += kb) {
      for (int t = 0; t < C.threads; ++t) {
        const int warp = t / ws, lane = t % ws;
        chunk a_staged[a_copies], b_staged[b_copies];
        for (int i = 0; i < a_copies; ++i) {
          const row_col x = warp_raked(C.threads, ws, C.m_per_block, kb, mma_vector, warp, lane, i);
          e.global_load(t, "A global load", slots[0], ((block_m + x.row) * C.k + k0 + x.col) * 2, 16, a_staged[i].data());
        }
        for (int i = 0; i < b_copies; ++i) {
          const row_col x = warp_raked(C.threads, ws, C.n_per_block, kb, mma_vector, warp, lane, i);
          e.global_load(t, "B global load", slots[1], ((block_n + x.row) * C.k + k0 + x.col) * 2, 16, b_staged[i].data());
        }
        for (int i = 0; i < a_copies; ++i) {
          const row_col x = warp_raked(C.threads, ws, C.m_per_block, kb, mma_vector, warp, lane, i);
          e.lds_store(t, "A lds store", lds_offset(a_layout, x.row, x.col) * 2, 16, a_staged[i].data());
        }
        for (int i = 0; i < b_copies; ++i) {
          const row_col x = warp_raked(C.threads, ws, C.n_per_block, kb, mma_vector, warp, lane, i);
          e.lds_store(t, "B lds store", C.b_lds_byte() + lds_offset(b_layout, x.row, x.col) * 2, 16, b_staged[i].data());
        }
      }
      e.barrier();
      for (int warp = 0; warp < C.warps(); ++warp)
        for (int ki = 0; ki < ki_n; ++ki) {
          std::array<rows, mi_n> a{};
          std::array<rows, ni_n / 2> b{};
          for (int lane = 0; lane < ws; ++lane) {
            const int t = warp * ws + lane;
            for (int mi = 0; mi < mi_n; ++mi) {
              const row_col x = C.a_ldmatrix(warp, lane, mi, ki);
              e.lds_load(t, "A ldmatrix", lds_offset(a_layout, x.row, x.col) * 2, 16, a[mi][lane].data());
            }
            for (int nj = 0; nj < ni_n / 2; ++nj) {
              const row_col x = C.b_ldmatrix(warp, lane, nj, ki);
              e.lds_load(t, "B ldmatrix", C.b_lds_byte() + lds_offset(b_layout, x.row, x.col) * 2, 16, b[nj][lane].data());
            }
          }
          for (int mi = 0; mi < mi_n; ++mi)
            for (int ni = 0; ni < ni_n; ++ni) {
              // D(r, c) = C(r, c) + sum_k A(r, k) B(k, c) from the lanes' registers (mma.hpp's position maps).
              float a_m[16][16], b_m[16][8];
              for (int lane = 0; lane < ws; ++lane) {
                for (int r = 0; r < 4; ++r)
                  for (int half = 0; half < 2; ++half) {
                    const matrix_position p = mma_a_position(lane, r, half);
                    a_m[p.row][p.col] = half_of(reg(a[mi], lane, r), half);
                  }
                for (int r = 0; r < 2; ++r)
                  for (int half = 0; half < 2; ++half) {
                    const matrix_position p = mma_b_position(lane, r, half);
                    b_m[p.row][p.col] = half_of(reg(b[ni / 2], lane, 2 * (ni % 2) + r), half);
                  }
              }
              for (int lane = 0; lane < ws; ++lane)
                for (int r = 0; r < 4; ++r) {
                  const matrix_position p = mma_c_position(lane, r);
                  float sum = acc[static_cast<std::size_t>(warp * ws + lane)].v[mi][ni][r];
                  for (int kk = 0; kk < 16; ++kk) sum += a_m[p.row][kk] * b_m[kk][p.col];
                  acc[static_cast<std::size_t>(warp * ws + lane)].v[mi][ni][r] = sum;
                }
            }
        }
      if (k0 + kb < C.k) e.barrier();
    }
    for (int t = 0; t < C.threads; ++t) {
      const int warp = t / ws, lane = t % ws;
      for (int mi = 0; mi < mi_n; ++mi)
        for (int ni = 0; ni < ni_n; ++ni)
          for (int h = 0; h < 2; ++h) {
            const row_col x = C.c_pair(warp, lane, mi, ni, h);
            e.global_store(t, "C global store", slots[2], ((block_m + x.row) * C.n + block_n + x.col) * 4, 8,
                           &acc[static_cast<std::size_t>(t)].v[mi][ni][2 * h]);
          }
    }
    out.push_back(std::move(e.threads));
  }
  return out;
}

template <morton_config C>
std::vector<block_trace> emulate_morton(const int* slots, int grid, std::vector<byte_buffer>& g) {
  std::vector<block_trace> out;
  for (int block = 0; block < grid; ++block) {
    emulated_block e(g, C.threads, C.lds_bytes());
    const int y0 = block * C.fh;
    for (int t = 0; t < C.threads; ++t) {
      const int warp = t / C.warp_size, lane = t % C.warp_size, dy = lane / C.fw, dx = lane % C.fw;
      for (int k = 0; k < C.passes(); ++k) {
        const int y = y0 + dy, x = (k * C.waves() + warp) * C.fw + dx;
        float v = 0;
        e.global_load(t, "texel load", slots[0], morton_input_offset(C, y, x) * 4, 4, &v);
        if (C.staging == morton_staging::direct)
          e.global_store(t, "texel store", slots[1], (y * C.width + x) * 4, 4, &v);
        else
          e.lds_store(t, "lds store", morton_band_offset(C, dy, x) * 4, 4, &v);
      }
    }
    if (C.staging != morton_staging::direct) {
      e.barrier();
      for (int t = 0; t < C.threads; ++t)
        for (int i = 0; i < C.band_reads(); ++i) {
          const int el = t + i * C.threads, r = el / C.width, c = el % C.width;
          float v = 0;
          e.lds_load(t, "lds load", morton_band_offset(C, r, c) * 4, 4, &v);
          e.global_store(t, "texel store", slots[1], ((y0 + r) * C.width + c) * 4, 4, &v);
        }
    }
    out.push_back(std::move(e.threads));
  }
  return out;
}

template <conv_config C>
std::vector<block_trace> emulate_conv(const int* slots, int grid, std::vector<byte_buffer>& g) {
  constexpr int taps = C.gemm_k();
  std::vector<block_trace> out;
  for (int block = 0; block < grid; ++block) {
    emulated_block e(g, C.threads, 0);
    for (int t = 0; t < C.threads; ++t) {
      const int o = block * C.threads + t, m = o / C.c_out, co = o % C.c_out;
      const int wo = m % C.wo(), ho = m / C.wo() % C.ho(), n = m / (C.wo() * C.ho());
      float v[taps] = {}, f[taps] = {};  // every load first, then the FMAs in k order
      if constexpr (C.mode == conv_kind::naive) {
        for (int r = 0; r < C.r; ++r)
          for (int s = 0; s < C.s; ++s) {
            const int hi = conv_in_h(C, ho, r), wi = conv_in_w(C, wo, s);
            const bool inside = conv_always_inside(C) || conv_inside(C, hi, wi);
            for (int c = 0; c < C.c_in; ++c) {
              const int k = (r * C.s + s) * C.c_in + c;
              if (inside) e.global_load(t, "x load", slots[0], conv_input_offset(C, n, hi, wi, c) * 4, 4, &v[k]);
              e.global_load(t, "w load", slots[1], conv_weight_offset(C, co, r, s, c) * 4, 4, &f[k]);
            }
          }
      } else if constexpr (C.mode == conv_kind::sliding) {
        const int window = conv_input_offset(C, n, conv_in_h(C, ho, 0), conv_in_w(C, wo, 0), 0);
        const int filter = co * C.gemm_k();
        for (int r = 0; r < C.r; ++r)
          for (int s = 0; s < C.s; ++s) {
            const bool inside = conv_always_inside(C) || conv_inside(C, conv_in_h(C, ho, r), conv_in_w(C, wo, s));
            const int step = (r * C.dilation_h * C.w + s * C.dilation_w) * C.c_in;
            for (int c = 0; c < C.c_in; ++c) {
              const int k = (r * C.s + s) * C.c_in + c;
              if (inside) e.global_load(t, "window load", slots[0], (window + step + c) * 4, 4, &v[k]);
              e.global_load(t, "w load", slots[1], (filter + k) * 4, 4, &f[k]);
            }
          }
      } else {
        constexpr int kb = C.k_per_block, vec = C.vector;
        for (int k0 = 0; k0 < C.gemm_k(); k0 += kb) {
          for (int j = 0; j < kb; j += vec) {
            const int k = k0 + j, r = k / (C.s * C.c_in), s = k / C.c_in % C.s, c = k % C.c_in;
            const int hi = conv_in_h(C, ho, r), wi = conv_in_w(C, wo, s);
            if (conv_always_inside(C) || conv_inside(C, hi, wi))
              e.global_load(t, "A global load", slots[0], conv_input_offset(C, n, hi, wi, c) * 4, 4 * vec, &v[k]);
          }
          for (int j = 0; j < kb; j += vec)
            e.global_load(t, "B global load", slots[1], (co * C.gemm_k() + k0 + j) * 4, 4 * vec, &f[k0 + j]);
        }
      }
      float acc = 0.0f;
      for (int k = 0; k < taps; ++k) acc += v[k] * f[k];
      e.global_store(t, "out store", slots[2], o * 4, 4, &acc);
    }
    out.push_back(std::move(e.threads));
  }
  return out;
}

template <int N>
std::vector<block_trace> emulate_transpose(const int* slots, std::vector<byte_buffer>& g) {
  std::vector<block_trace> out;
  const int tiles = N / transpose_tile;
  for (int block = 0; block < tiles * tiles; ++block) {
    emulated_block e(g, transpose_threads, transpose_lds_bytes);
    for (int t = 0; t < transpose_threads; ++t)
      for (int i = 0; i < transpose_steps; ++i) {
        float v = 0;
        e.global_load(t, "global load", slots[0], transpose_load_offset(N, block, t, i) * 4, 4, &v);
        e.lds_store(t, "lds store", transpose_lds_store(t, i) * 4, 4, &v);
      }
    e.barrier();
    for (int t = 0; t < transpose_threads; ++t)
      for (int i = 0; i < transpose_steps; ++i) {
        float v = 0;
        e.lds_load(t, "lds load", transpose_lds_load(t, i) * 4, 4, &v);
        e.global_store(t, "global store", slots[1], transpose_store_offset(N, block, t, i) * 4, 4, &v);
      }
    out.push_back(std::move(e.threads));
  }
  return out;
}

// The reference run of point p on the CPU: its accesses, and the buffers it leaves (from `in`'s inputs).
struct emulation {
  std::vector<block_trace> blocks;
  std::vector<byte_buffer> buffers;
  int lds_bytes = 0;
};

emulation emulate(const crosscheck_point& p, const point_inputs& in) {
  const reference_choice c = reference_choice_of(p);
  const int index = find_instance(c);
  REQUIRE_MESSAGE(index >= 0, p.name, ": no reference (", c.why, ")");
  emulation r;
  r.buffers = in.buffers;
  switch (c.program) {
    case reference_program::copy:
      with_entry<copy_instances>(index, [&]<copy_config C>() {
        r.blocks = emulate_copy<C>(c.slots, p.grid, r.buffers);
        r.lds_bytes = C.lds_bytes();
      });
      break;
    case reference_program::sweep:
      with_entry<sweep_instances>(index, [&]<sweep_config S>() {
        r.blocks = emulate_sweep<S>(c.slots, p.grid, r.buffers);
        r.lds_bytes = S.tile.lds_bytes();
      });
      break;
    case reference_program::gemm:
      with_entry<gemm_instances>(index, [&]<gemm_config C>() {
        REQUIRE(p.grid == C.grid());
        r.blocks = emulate_gemm<C>(c.slots, p.grid, r.buffers);
        r.lds_bytes = C.lds_bytes();
      });
      break;
    case reference_program::mma_gemm:
      with_entry<mma_gemm_instances>(index, [&]<mma_gemm_config C>() {
        REQUIRE(p.grid == C.grid());
        r.blocks = emulate_mma_gemm<C>(c.slots, p.grid, r.buffers);
        r.lds_bytes = C.lds_bytes();
      });
      break;
    case reference_program::morton:
      with_entry<morton_instances>(index, [&]<morton_config C>() {
        REQUIRE(p.grid == C.grid());
        r.blocks = emulate_morton<C>(c.slots, p.grid, r.buffers);
        r.lds_bytes = C.lds_bytes();
      });
      break;
    case reference_program::conv:
      with_entry<conv_instances>(index, [&]<conv_config C>() {
        REQUIRE(p.grid == C.grid());
        r.blocks = emulate_conv<C>(c.slots, p.grid, r.buffers);
      });
      break;
    case reference_program::transpose:
      with_entry<transpose_instances>(index, [&]<int N>() {
        REQUIRE(p.grid == (N / transpose_tile) * (N / transpose_tile));
        r.blocks = emulate_transpose<N>(c.slots, r.buffers);
        r.lds_bytes = transpose_lds_bytes;
      });
      break;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------------------
// spec/'s side of the layouts and patterns.

// The spec descriptor of a resolved layout (element_bytes only matters to ck_xor's L, which d already holds).
template <class F>
void with_spec_layout(const lds_layout& d, F&& f) {
  switch (d.kind) {
    case lds_kind::row_major:
      f(make_row_major_descriptor(d.rows, d.cols));
      return;
    case lds_kind::padded:
      f(make_row_major_descriptor(d.rows, d.cols, d.pad));
      return;
    case lds_kind::ck_xor: {
      ck_lds_xor_params x{d.rows, d.cols, d.ck_k_pack};
      x.m_lds_layer = d.ck_layers;
      x.order = d.ck_2024 ? ck_lds_order::k0_l_2024 : ck_lds_order::l_k0_2025;
      f(make_ck_lds_xor_descriptor(x));
      return;
    }
    case lds_kind::cute_swizzle:
      f(make_cute_swizzle_descriptor(d.sw_bits, d.sw_base, d.sw_shift, d.rows, d.cols));
      return;
  }
}

// "" or the first element where the hand-written layout and spec's descriptor differ, or two elements collide.
std::string layout_difference(const lds_layout& d) {
  std::string why;
  with_spec_layout(d, [&](const auto& desc) {
    if (desc.element_space_size != lds_elements(d)) {
      why = "element space " + std::to_string(desc.element_space_size) + " vs " + std::to_string(lds_elements(d));
      return;
    }
    std::vector<int> seen(static_cast<std::size_t>(lds_elements(d)), 0);
    for (int r = 0; r < d.rows; ++r)
      for (int c = 0; c < d.cols; ++c) {
        const int mine = lds_offset(d, r, c);
        const index_t theirs = desc.calculate_offset({r, c});
        if (mine != theirs || mine < 0 || mine >= lds_elements(d) || seen[static_cast<std::size_t>(mine)]++) {
          why = "(" + std::to_string(r) + ", " + std::to_string(c) + "): hand-written " + std::to_string(mine) +
                ", spec " + std::to_string(theirs);
          return;
        }
      }
  });
  return why;
}

using y_index = multi_index<tile_distribution_encoding::max_y>;

// "" or the first (warp, lane, access) where the hand-written copy pattern differs from spec's encodings.
std::string copy_pattern_difference(const copy_config& c, const programs::copy_params& q) {
  const tile_distribution_encoding write = make_warp_raked_encoding(c.threads, c.warp_size, c.rows, c.cols, c.vector);
  const tile_distribution_encoding read = programs::make_copy_read_encoding(q, c.threads, c.warp_size);
  const int groups = c.lane_rows > 0 ? c.warp_size / c.lane_rows : 1;
  const int k_groups = c.lane_rows > 0 ? c.cols / (groups * c.vector) : 1;
  for (int t = 0; t < c.threads; ++t) {
    const int warp = t / c.warp_size, lane = t % c.warp_size;
    for (int i = 0; i < c.write_accesses(); ++i) {
      const auto x = write.x_of(partition_index(write, warp, lane), y_index{i, 0});
      const row_col mine = c.write_at(warp, lane, i);
      if (mine.row != x[0] || mine.col != x[1])
        return "write, thread " + std::to_string(t) + " access " + std::to_string(i);
    }
    if (c.read == read_kind::ldmatrix_operand) {  // the registers' elements: mma A fragment j of read i, d = 8i + 2j
      for (int i = 0; i < c.read_accesses(); ++i)
        for (int j = 0; j < 4; ++j) {
          const auto x = read.x_of(partition_index(read, warp, lane), read.y_of(8 * i + 2 * j));
          const row_col mine = ldmatrix_register_at(c.threads, c.warp_size, c.cols, warp, lane, i, j);
          if (mine.row != x[0] || mine.col != x[1])
            return "ldmatrix register, thread " + std::to_string(t) + " read " + std::to_string(i) + " register " +
                   std::to_string(j) + ": hand-written (" + std::to_string(mine.row) + ", " + std::to_string(mine.col) +
                   "), spec (" + std::to_string(x[0]) + ", " + std::to_string(x[1]) + ")";
        }
      continue;
    }
    for (int i = 0; i < c.read_accesses(); ++i) {
      const y_index y = c.read == read_kind::gemm_operand ? y_index{i / k_groups, i % k_groups, 0} : y_index{i, 0};
      const auto x = read.x_of(partition_index(read, warp, lane), y);
      const row_col mine = c.read_at(warp, lane, i);
      if (mine.row != x[0] || mine.col != x[1])
        return "read, thread " + std::to_string(t) + " access " + std::to_string(i) + ": hand-written (" +
               std::to_string(mine.row) + ", " + std::to_string(mine.col) + "), spec (" + std::to_string(x[0]) + ", " +
               std::to_string(x[1]) + ")";
    }
    if (write.elements_per_thread() != c.write_accesses() * c.vector ||
        read.elements_per_thread() != c.read_accesses() * c.vector)
      return "elements per thread";
  }
  return "";
}

// The catalogue's points with their resolved choices.
struct resolved_point {
  crosscheck_point point;
  reference_choice choice;
  int index;
};
const std::vector<resolved_point>& resolved_catalogue() {
  static const std::vector<resolved_point> v = [] {
    std::vector<resolved_point> r;
    for (const crosscheck_point& p : catalogue()) {
      const reference_choice c = reference_choice_of(p);
      r.push_back({p, c, find_instance(c)});
    }
    return r;
  }();
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------

TEST_CASE("the worked examples of reference_index.hpp's essay hold") {
  constexpr copy_config c = copy_instances[0];
  CHECK(c.write_at(1, 13, 0).row == 11);
  CHECK(c.write_at(1, 13, 0).col == 8);
  CHECK(c.read_at(1, 13, 0).row == 13);
  CHECK(c.read_at(1, 13, 0).col == 8);
  CHECK(lds_offset(copy_instances[2].lds, 13, 8) == 408);
  CHECK(lds_offset(copy_instances[0].lds, 13, 8) == 424);
  CHECK(lds_offset(copy_instances[1].lds, 13, 8) == 528);
  CHECK(lds_offset(copy_instances[3].lds, 13, 8) == 416);
  CHECK(ck_xor_offset(3, 8, 32, 8, 2, true) == 80);
  CHECK(ck_lds_layers(32, 32, 2) == 2);
  CHECK(cute_swizzle(72, 3, 3, 3) == 64);
  CHECK(spread_bits_int(0b111) == 0b010101);
  CHECK(morton_tiled_offset(2, 3, 4, 1) == 13);
  static_assert(copy_instances[0].lds_bytes() == 4096 && gemm_instances[0].lds_bytes() == 16384);
}

TEST_CASE("every catalogue point has a compiled reference kernel, and every compiled configuration serves a point") {
  std::set<std::pair<int, int>> used;
  for (const resolved_point& r : resolved_catalogue()) {
    CAPTURE(r.point.name);
    CHECK_MESSAGE(r.choice.ok, r.choice.why);
    CHECK(r.index >= 0);
    CHECK(has_reference(r.point));
    used.insert({static_cast<int>(r.choice.program), r.index});
  }
  CHECK(resolved_catalogue().size() >= 45);
  const std::pair<reference_program, std::size_t> lists[] = {
      {reference_program::copy, std::size(copy_instances)},   {reference_program::sweep, std::size(sweep_instances)},
      {reference_program::gemm, std::size(gemm_instances)},   {reference_program::morton, std::size(morton_instances)},
      {reference_program::conv, std::size(conv_instances)},   {reference_program::transpose, std::size(transpose_instances)},
      {reference_program::mma_gemm, std::size(mma_gemm_instances)}};
  for (const auto& list : lists)
    for (std::size_t i = 0; i < list.second; ++i) {
      const int program = static_cast<int>(list.first), entry = static_cast<int>(i);
      CAPTURE(program);
      CAPTURE(entry);
      CHECK(used.count({program, entry}) == 1);
    }
}

TEST_CASE("no configuration is listed twice (one kernel per distinct algorithm instance)") {
  auto unique = [](const auto& list) {
    for (std::size_t i = 0; i < std::size(list); ++i)
      for (std::size_t j = i + 1; j < std::size(list); ++j)
        if (list[i] == list[j]) return false;
    return true;
  };
  CHECK(unique(copy_instances));
  CHECK(unique(sweep_instances));
  CHECK(unique(gemm_instances));
  CHECK(unique(morton_instances));
  CHECK(unique(conv_instances));
  CHECK(unique(transpose_instances));
  CHECK(unique(mma_gemm_instances));
}

TEST_CASE("a point the references do not express is refused by name, not guessed") {
  crosscheck_point p = catalogue()[0];
  p.wave_size = 64;
  CHECK_FALSE(has_reference(p));
  CHECK(reference_choice_of(p).why.find("32-lane") != std::string::npos);
  p = catalogue()[0];
  p.params.as<programs::copy_params>().rows = 96;  // a shape no kernel was compiled for
  CHECK(reference_choice_of(p).ok);
  CHECK_FALSE(has_reference(p));
  p = catalogue()[0];
  p.params.as<programs::copy_params>().layout = programs::copy_lds_layout::cute_swizzle;
  p.params.as<programs::copy_params>().swizzle_shift = 1;  // a valid swizzle, but not one of the compiled ones
  CHECK_FALSE(has_reference(p));
}

TEST_CASE("hand-written LDS offsets == spec's descriptors on every element, and each layout is a bijection") {
  std::vector<lds_layout> layouts;
  for (const copy_config& c : copy_instances) layouts.push_back(c.lds);
  for (const sweep_config& s : sweep_instances) layouts.push_back(s.tile.lds);
  for (const gemm_config& g : gemm_instances) {
    layouts.push_back(g.a_lds());
    layouts.push_back(g.b_lds());
  }
  // both CK orders at banks 32 and 64 (gfx950's L = 4), beyond what the sm90 catalogue compiles
  for (const bool order_2024 : {false, true})
    for (const int banks : {32, 64})
      layouts.push_back(ck_xor(128, 32, 8, ck_lds_layers(banks, 32, 2), order_2024));
  for (const lds_layout& d : layouts) {
    CAPTURE(static_cast<int>(d.kind));
    CAPTURE(d.rows);
    CAPTURE(d.cols);
    CHECK(layout_difference(d) == "");
  }
  // The layouts a catalogue point's params resolve to are the ones copy.hpp and gemm_tile.hpp build.
  for (const resolved_point& r : resolved_catalogue()) {
    CAPTURE(r.point.name);
    if (r.choice.program == reference_program::copy) {
      programs::with_copy_lds_descriptor(r.point.params.as<programs::copy_params>(), r.choice.copy.element_bytes, [&](const auto& desc) {
        CHECK(desc.element_space_size == lds_elements(r.choice.copy.lds));
        for (int row = 0; row < r.choice.copy.rows; ++row)
          for (int col = 0; col < r.choice.copy.cols; ++col)
            if (desc.calculate_offset({row, col}) != lds_offset(r.choice.copy.lds, row, col)) {
              FAIL_CHECK("(", row, ", ", col, ")");
              return;
            }
      });
    } else if (r.choice.program == reference_program::gemm) {
      programs::with_gemm_lds_descriptors(r.point.params.as<programs::gemm_params>(), [&](const auto& a, const auto& b) {
        const gemm_config& g = r.choice.gemm;
        CHECK(a.element_space_size == lds_elements(g.a_lds()));
        CHECK(b.element_space_size == lds_elements(g.b_lds()));
        for (int row = 0; row < g.m_per_block; ++row)
          for (int k = 0; k < g.k_per_block; ++k) CHECK(a.calculate_offset({row, k}) == lds_offset(g.a_lds(), row, k));
      });
    }
  }
}

TEST_CASE("hand-written thread -> element maps == spec's encodings for every thread and access") {
  for (const resolved_point& r : resolved_catalogue()) {
    CAPTURE(r.point.name);
    if (r.choice.program == reference_program::copy) {
      CHECK(copy_pattern_difference(r.choice.copy, r.point.params.as<programs::copy_params>()) == "");
    } else if (r.choice.program == reference_program::sweep) {
      CHECK(copy_pattern_difference(r.choice.sweep.tile, r.point.params.as<programs::lds_sweep_params>().tile) == "");
    } else if (r.choice.program == reference_program::gemm) {
      const gemm_config& g = r.choice.gemm;
      const programs::gemm_warp_grid grid = programs::make_gemm_warp_grid(r.point.params.as<programs::gemm_params>(), g.threads, g.warp_size);
      CHECK(grid.m_iter == g.m_iter());
      CHECK(grid.n_iter == g.n_iter());
      CHECK(grid.k_iter == g.k_iter());
      const tile_distribution_encoding a = programs::make_gemm_a_encoding(grid, g.vector);
      const tile_distribution_encoding b = programs::make_gemm_b_encoding(grid, g.vector);
      const tile_distribution_encoding c = programs::make_gemm_c_encoding(grid);
      const tile_distribution_encoding a_copy =
          make_warp_raked_encoding(g.threads, g.warp_size, g.m_per_block, g.k_per_block, g.vector);
      int bad = 0;
      for (int t = 0; t < g.threads; ++t) {
        const int warp = t / g.warp_size, lane = t % g.warp_size;
        for (int i = 0; i < g.a_copies(); ++i) {
          const auto x = a_copy.x_of(partition_index(a_copy, warp, lane), y_index{i, 0});
          const row_col mine = warp_raked(g.threads, g.warp_size, g.m_per_block, g.k_per_block, g.vector, warp, lane, i);
          bad += mine.row != x[0] || mine.col != x[1];
        }
        for (int mi = 0; mi < g.m_iter(); ++mi)
          for (int ki = 0; ki < g.k_iter(); ++ki)
            for (int i = 0; i < gemm_per_lane; ++i) {
              const auto x = a.x_of(partition_index(a, warp, lane), y_index{mi, ki, i, 0});
              bad += x[0] != g.a_row(warp, lane, mi, i) || x[1] != ki * g.vector;
            }
        for (int ni = 0; ni < g.n_iter(); ++ni)
          for (int ki = 0; ki < g.k_iter(); ++ki)
            for (int j = 0; j < gemm_per_lane; ++j) {
              const auto x = b.x_of(partition_index(b, warp, lane), y_index{ni, ki, j, 0});
              bad += x[0] != g.b_row(warp, lane, ni, j) || x[1] != ki * g.vector;
            }
        for (int mi = 0; mi < g.m_iter(); ++mi)
          for (int ni = 0; ni < g.n_iter(); ++ni)
            for (int i = 0; i < gemm_per_lane; ++i)
              for (int j = 0; j < gemm_per_lane; ++j) {
                const auto x = c.x_of(partition_index(c, warp, lane), y_index{mi, ni, i, j});
                bad += x[0] != g.a_row(warp, lane, mi, i) || x[1] != g.b_row(warp, lane, ni, j);
              }
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("hand-written Morton and im2col offsets == examples/' descriptors on every texel and (m, k)") {
  for (const resolved_point& r : resolved_catalogue()) {
    CAPTURE(r.point.name);
    if (r.choice.program == reference_program::morton) {
      const morton_config& m = r.choice.morton;
      const examples::morton_params& q = r.point.params.as<examples::morton_params>();
      examples::with_texel_layout(q.layout, q.height, q.width, q.tile, [&](const auto& layout) {
        int bad = 0;
        for (int y = 0; y < m.height; ++y)
          for (int x = 0; x < m.width; ++x) bad += layout.calculate_offset({y, x}) != morton_input_offset(m, y, x);
        CHECK(bad == 0);
      });
      const examples::lds_band_layout band{q.staging == examples::texel_staging::lds_morton, q.width,
                                           examples::morton_tiled_bits{q.footprint_rows, q.width, q.tile}};
      int bad = 0;
      for (int row = 0; row < m.fh; ++row)
        for (int c = 0; c < m.width; ++c) bad += band.offset(row, c) != morton_band_offset(m, row, c);
      CHECK(bad == 0);
    } else if (r.choice.program == reference_program::conv) {
      const conv_config& c = r.choice.conv;
      const auto im2col = examples::make_conv_im2col_descriptor(r.point.params.as<examples::conv_params>());
      const auto lengths = im2col.lengths();
      CHECK(lengths[0] == c.n * c.ho() * c.wo());
      CHECK(lengths[1] == c.gemm_k());
      int bad = 0;
      for (int m = 0; m < c.n * c.ho() * c.wo(); ++m)
        for (int k = 0; k < c.gemm_k(); ++k) {
          const int wo = m % c.wo(), ho = m / c.wo() % c.ho(), n = m / (c.wo() * c.ho());
          const int r = k / (c.s * c.c_in), s = k / c.c_in % c.s, ch = k % c.c_in;
          const int hi = conv_in_h(c, ho, r), wi = conv_in_w(c, wo, s);
          const auto coord = im2col.make_coordinate({m, k});
          bad += im2col.is_valid(coord) != conv_inside(c, hi, wi);
          if (conv_inside(c, hi, wi)) bad += coord.offset() != conv_input_offset(c, n, hi, wi, ch);
          bad += conv_weight_offset(c, 0, r, s, ch) != k;
        }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("conv_always_inside: without padding every window pixel of every output is inside the image") {
  // The kernels' compile-time validity: where it says true, conv_inside holds for every (ho, wo, r, s).
  std::vector<conv_config> configs(std::begin(conv_instances), std::end(conv_instances));
  conv_config strided = conv_nhwc(conv_kind::naive);
  strided.h = strided.w = 9;
  strided.stride_h = strided.stride_w = 2;
  strided.dilation_h = strided.dilation_w = 2;
  configs.push_back(strided);  // Ho = Wo = 3: the last window ends on the last pixel
  conv_config padded = conv_nhwc(conv_kind::naive);
  padded.pad_h = padded.pad_w = 1;
  configs.push_back(padded);
  for (const conv_config& c : configs) {
    CAPTURE(c.h);
    CAPTURE(c.pad_h);
    CAPTURE(c.stride_h);
    int outside = 0;
    for (int ho = 0; ho < c.ho(); ++ho)
      for (int wo = 0; wo < c.wo(); ++wo)
        for (int r = 0; r < c.r; ++r)
          for (int s = 0; s < c.s; ++s) outside += !conv_inside(c, conv_in_h(c, ho, r), conv_in_w(c, wo, s));
    if (conv_always_inside(c)) CHECK(outside == 0);
  }
  CHECK_FALSE(conv_always_inside(padded));
  for (const conv_config& c : conv_instances) CHECK(conv_always_inside(c));  // the catalogue's: no branch left
}

TEST_CASE("every catalogue point: the reference kernel's accesses == the simulator's instructions, lane by lane, "
          "and its data give the program's output") {
  for (const resolved_point& r : resolved_catalogue()) {
    CAPTURE(r.point.name);
    const point_inputs in = make_inputs(r.point, 20261124);
    const simulated s = simulate(r.point, in);
    const emulation e = emulate(r.point, in);
    CHECK(first_difference(s.run, e.blocks, r.point.wave_size) == "");
    CHECK(static_cast<std::size_t>(e.lds_bytes) == s.lds_bytes);  // the dynamic LDS the launch gives it
    const output_check check = check_output(r.point, in, e.buffers, &s);
    CHECK_MESSAGE(check.mismatches == 0, check.first_mismatch);
    CHECK(check.compared > 0);
    // Bit for bit the simulator's output: exact for the copies, the sweep and Morton; for GEMM and convolution
    // too, as both sum the same products in the same order, wherever the host does not contract a*b + c.
    const bool float_sums = r.choice.program == reference_program::gemm || r.choice.program == reference_program::conv ||
                            r.choice.program == reference_program::mma_gemm;
#if defined(__FMA__) || defined(__aarch64__)
    if (float_sums) continue;
#endif
    (void)float_sums;
    CHECK(e.buffers[static_cast<std::size_t>(in.output_slot)] == s.buffers[static_cast<std::size_t>(in.output_slot)]);
  }
}

TEST_CASE("the transpose twin: out = in^T, each element written once, 32 distinct LDS banks per warp access") {
  for (const int n : transpose_instances) {
    CAPTURE(n);
    const int tiles = n / transpose_tile;
    std::vector<float> in(static_cast<std::size_t>(n) * n), out(in.size(), -1.0f);
    std::vector<int> writes(in.size(), 0);
    std::mt19937 g(static_cast<unsigned>(n));
    for (float& x : in) x = static_cast<float>(g() % 100000);
    int bank_conflicts = 0;
    for (int b = 0; b < tiles * tiles; ++b) {
      float lds[transpose_tile * transpose_lds_row] = {};
      for (int t = 0; t < transpose_threads; ++t)
        for (int i = 0; i < transpose_steps; ++i) {
          const int at = transpose_lds_store(t, i);
          REQUIRE(at < transpose_tile * transpose_lds_row);
          lds[at] = in[static_cast<std::size_t>(transpose_load_offset(n, b, t, i))];
        }
      for (int t = 0; t < transpose_threads; ++t)
        for (int i = 0; i < transpose_steps; ++i) {
          const auto o = static_cast<std::size_t>(transpose_store_offset(n, b, t, i));
          out[o] = lds[transpose_lds_load(t, i)];
          ++writes[o];
        }
      if (b == 0)
        for (int w = 0; w < transpose_threads / 32; ++w)
          for (int i = 0; i < transpose_steps; ++i) {
            std::set<int> store_banks, load_banks;
            for (int l = 0; l < 32; ++l) {
              store_banks.insert(transpose_lds_store(32 * w + l, i) % 32);
              load_banks.insert(transpose_lds_load(32 * w + l, i) % 32);
            }
            bank_conflicts += store_banks.size() != 32 || load_banks.size() != 32;
          }
    }
    int bad = 0;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        bad += out[static_cast<std::size_t>(y) * n + x] != in[static_cast<std::size_t>(x) * n + y] ||
               writes[static_cast<std::size_t>(y) * n + x] != 1;
    CHECK(bad == 0);
    CHECK(bank_conflicts == 0);
  }
}

#if defined(TILESIM_REFERENCE_HAS_TRANSPOSE_PROGRAM)
TEST_CASE("the transpose twin's accesses == the simulator's instructions for programs::transpose, and its output") {
  auto check = [&]<int N>() {
    CAPTURE(N);
    std::vector<float> in(static_cast<std::size_t>(N) * N);
    std::mt19937 g(7);
    for (float& x : in) x = static_cast<float>(g() % 100000);
    sim::global_memory mem;
    mem.add<float>("in", in);
    mem.add<float>("out", static_cast<index_t>(in.size()), -1.0f);
    sim::launch l;
    l.grid = (N / transpose_tile) * (N / transpose_tile);
    l.block = transpose_threads;
    l.wave_size = 32;
    const programs::transpose_params p{N, 0, 1};
    const sim::run_result run = sim::run(l, std::move(mem), [&](sim::thread_context& ctx) { programs::transpose(ctx, p); });
    std::vector<byte_buffer> buffers(2, byte_buffer(in.size() * sizeof(float)));
    std::memcpy(buffers[0].data(), in.data(), buffers[0].size());
    const int slots[3] = {0, 1, 2};
    const std::vector<block_trace> blocks = emulate_transpose<N>(slots, buffers);
    CHECK(first_difference(run, blocks, 32) == "");
    for (const sim::workgroup_record& w : run.workgroups) CHECK(w.lds_bytes == static_cast<std::size_t>(transpose_lds_bytes));
    const std::vector<float> simulated = run.memory.get<float>(1);
    std::vector<float> mine(in.size());
    std::memcpy(mine.data(), buffers[1].data(), buffers[1].size());
    CHECK(mine == simulated);
  };
  check.template operator()<64>();
  check.template operator()<256>();
}
#endif
