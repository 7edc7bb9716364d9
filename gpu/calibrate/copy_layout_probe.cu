// tilesim/gpu/calibrate/copy_layout_probe.cu: is a copy's time its layout's, or its compiled code's?
//
// WHAT IT IS. A probe for issue 12's two speed-up outliers. The catalogue's LDS.128 copies of one 128x32 fp16 tile
// share one SASS skeleton (2 LDG.128, 2 STS.128, BAR, 2 LDS.128, 2 STG.128) and identical global addresses, yet
// measure 853 (SW64) to 976 (CK-XOR 2025) cycles where the model predicts 928 and 931; the ldmatrix.x4 copies run
// their bank-conflicted row-major layout faster than the conflict-free one. Here every layout runs through ONE
// compiled kernel: each thread's addresses (the catalogue kernels' own, evaluated from their H100 SASS by
// copy_layout_tables.py) are loaded before the clock starts, so between layouts only the data differ. If the
// layouts still differ as the catalogue kernels do, the time is the layout's (a bank or sector rule the model
// misses); if not, it is the compiled code's. Variants, each a TSV row per (variant, layout, round):
//   base        the skeleton as the catalogue kernels run it (grid 1, 256 threads, fresh buffers every launch,
//               clock64 from a barrier before the loads to a barrier after the stores)
//   ldsm        2 ldmatrix.x4 and 8 4-byte stores, STG k storing register k % 4 of ldmatrix k / 4 (the twins)
//   ldsm_held   the same, each store also reading the second ldmatrix's result (the tilesim kernels' order)
//   extraN      base with a chain of N dependent IMADs between the loads and the shared stores (CK 2025 has 8
//               more integer instructions there than SW64)
//   padN        base with N NANOSLEEPs (N = 1..8, 16) before the first barrier: the timed code N x 16 bytes further into its
//               instruction-cache lines
//   stamps      base (or ldsm_held) with clock64 after the shared stores, the barrier and the global stores, per warp
// Not part of the Meson build (like conv_probe.cu): it runs on the device machine.
//   python3 scripts/calibrate/copy_layout_tables.py > tables.tsv
//   nvcc -O3 -std=c++17 -arch=sm_90 -o copy_layout_probe gpu/calibrate/copy_layout_probe.cu
//   ./copy_layout_probe tables.tsv [rounds]
//
// WORKED EXAMPLE. A row `base  sw64  lds128  0  561  744` says round 0 of the SW64 layout through the shared kernel
// took 561 cycles in its best launch of 10 and 744 in the median one (data/calibration/h100-copy-layout-probe.tsv). `stamps` rows add the median warp's clocks
// at which its shared stores issued (its loads' data had arrived), it left the barrier, and it issued its last
// global store.
//
// INVARIANTS. Every CUDA call is checked (exit 1 with CUDA's message). Every launch's output is checked against the
// copy its address table implies (the shared tile and ldmatrix's fragment rule evaluated on the host; exit 1
// naming the variant, layout and first wrong byte); every output byte is written by exactly one store.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_check.cuh"  // CHECK(call)
#include "fresh_launch.cuh"  // fresh_launch, median

constexpr int threads = 256, warps = threads / 32, tile_bytes = 8192, shared_bytes = 10240, launches = 10;
constexpr int columns = 14;  // LDG0 LDG1 STS0 STS1 READ0 READ1 STG0..STG7 (lds128 uses STG0, STG1)

enum class tail { lds128, ldsm, ldsm_held };

struct lane_table {
  int ldg[2], sts[2], read[2], stg[8];
};

__device__ __forceinline__ long long now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ void store_shared(unsigned address, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

__device__ __forceinline__ uint4 load_shared(unsigned address) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(address)
               : "memory");
  return v;
}

__device__ __forceinline__ uint4 ldmatrix_x4(unsigned address) {
  uint4 v;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(address)
               : "memory");
  return v;
}

// One launch: thread t copies per table[t]; cycles[0] = the block's clock64 span; stamps (when Stamps) per warp.
template <tail Tail, int Extra, int Pad, bool Stamps>
__global__ void table_copy(const lane_table* table, const unsigned char* in, unsigned char* out, unsigned zero,
                           long long* cycles, long long* stamps) {
  __shared__ __align__(16) unsigned char tile[shared_bytes];
#pragma unroll
  for (int i = 0; i < Pad; ++i) asm volatile("nanosleep.u32 0;");
  const int t = threadIdx.x;
  const lane_table row = table[t];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const uint4* load0 = reinterpret_cast<const uint4*>(in + row.ldg[0]);
  const uint4* load1 = reinterpret_cast<const uint4*>(in + row.ldg[1]);
  __syncthreads();
  const long long start = now();
  const uint4 a = *load0, b = *load1;
  unsigned x = static_cast<unsigned>(start);
#pragma unroll
  for (int i = 0; i < Extra; ++i) x = x * x + 1u;
  const unsigned shift = x & zero;
  store_shared(base + row.sts[0] + shift, a);
  store_shared(base + row.sts[1] + shift, b);
  const long long stored = Stamps ? now() : 0;
  __syncthreads();
  const long long passed = Stamps ? now() : 0;
  if constexpr (Tail == tail::lds128) {
    const uint4 c = load_shared(base + row.read[0]), d = load_shared(base + row.read[1]);
    *reinterpret_cast<uint4*>(out + row.stg[0]) = c;
    *reinterpret_cast<uint4*>(out + row.stg[1]) = d;
  } else {
    const uint4 c = ldmatrix_x4(base + row.read[0]), d = ldmatrix_x4(base + row.read[1]);
    const unsigned hold = Tail == tail::ldsm_held ? (d.x & zero) : 0u;
    const unsigned r[8] = {c.x | hold, c.y | hold, c.z | hold, c.w | hold, d.x, d.y, d.z, d.w};
#pragma unroll
    for (int k = 0; k < 8; ++k) *reinterpret_cast<unsigned*>(out + row.stg[k]) = r[k];
  }
  const long long issued = Stamps ? now() : 0;
  __syncthreads();
  const long long end = now();
  if (t == 0) cycles[0] = end - start;
  if (Stamps && t % 32 == 0) {
    long long* s = stamps + 4 * (t / 32);
    s[0] = stored - start, s[1] = passed - start, s[2] = issued - start, s[3] = end - start;
  }
}

using kernel_fn = void (*)(const lane_table*, const unsigned char*, unsigned char*, unsigned, long long*, long long*);

struct layout {
  std::string name, kind;
  std::vector<lane_table> lanes;
};

// Reads copy_layout_tables.py's rows: NAME KIND TID then 14 (ldsm) or 10 (lds128) byte offsets.
std::vector<layout> read_tables(const char* path) {
  std::ifstream f(path);
  if (!f) {
    std::fprintf(stderr, "copy_layout_probe: cannot read %s\n", path);
    std::exit(2);
  }
  std::vector<layout> out;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream s(line);
    std::string name, kind;
    int tid = -1;
    if (!(s >> name >> kind >> tid)) continue;
    if (out.empty() || out.back().name != name || out.back().kind != kind) out.push_back({name, kind, {}});
    lane_table r{};
    int* v = &r.ldg[0];
    const int n = kind == "ldsm" ? columns : 8;
    for (int k = 0; k < n; ++k)
      if (!(s >> v[k])) {
        std::fprintf(stderr, "copy_layout_probe: %s: %s %s thread %d has fewer than %d offsets\n", path,
                     name.c_str(), kind.c_str(), tid, n);
        std::exit(2);
      }
    if (tid != static_cast<int>(out.back().lanes.size())) {
      std::fprintf(stderr, "copy_layout_probe: %s: %s %s: thread %d out of order\n", path, name.c_str(), kind.c_str(),
                   tid);
      std::exit(2);
    }
    out.back().lanes.push_back(r);
  }
  return out;
}

// The output the table implies: the shared tile as the stores leave it, then each read (ldmatrix: lane l's
// register i holds 4 bytes of matrix i's row l / 4, bytes (l % 4) * 4, at the row address lane i * 8 + l / 4 gave).
std::vector<unsigned char> expected_output(const layout& l, const std::vector<unsigned char>& in, std::vector<int>& writes) {
  std::vector<unsigned char> shared(shared_bytes, 0), out(tile_bytes, 0);
  writes.assign(tile_bytes, 0);
  for (const lane_table& r : l.lanes)
    for (int k = 0; k < 2; ++k) std::memcpy(&shared[r.sts[k]], &in[r.ldg[k]], 16);
  for (int t = 0; t < threads; ++t) {
    const lane_table& r = l.lanes[t];
    if (l.kind == "lds128") {
      for (int k = 0; k < 2; ++k) {
        std::memcpy(&out[r.stg[k]], &shared[r.read[k]], 16);
        for (int b = 0; b < 16; ++b) ++writes[r.stg[k] + b];
      }
      continue;
    }
    const int warp = t / 32, lane = t % 32;
    for (int k = 0; k < 8; ++k) {
      const int j = k / 4, i = k % 4;
      const int row_address = l.lanes[warp * 32 + i * 8 + lane / 4].read[j];
      std::memcpy(&out[r.stg[k]], &shared[row_address + (lane % 4) * 4], 4);
      for (int b = 0; b < 4; ++b) ++writes[r.stg[k] + b];
    }
  }
  return out;
}

struct variant {
  std::string name;
  tail kind;
  kernel_fn kernel;
  bool stamps;
};

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: copy_layout_probe TABLES.tsv [ROUNDS]   (TABLES from copy_layout_tables.py)\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::vector<layout> layouts = read_tables(argv[1]);
  const std::vector<variant> variants = {
      {"base", tail::lds128, table_copy<tail::lds128, 0, 0, false>, false},
      {"ldsm", tail::ldsm, table_copy<tail::ldsm, 0, 0, false>, false},
      {"ldsm_held", tail::ldsm_held, table_copy<tail::ldsm_held, 0, 0, false>, false},
      {"extra8", tail::lds128, table_copy<tail::lds128, 8, 0, false>, false},
      {"extra24", tail::lds128, table_copy<tail::lds128, 24, 0, false>, false},
      {"pad1", tail::lds128, table_copy<tail::lds128, 0, 1, false>, false},
      {"pad2", tail::lds128, table_copy<tail::lds128, 0, 2, false>, false},
      {"pad3", tail::lds128, table_copy<tail::lds128, 0, 3, false>, false},
      {"pad4", tail::lds128, table_copy<tail::lds128, 0, 4, false>, false},
      {"pad5", tail::lds128, table_copy<tail::lds128, 0, 5, false>, false},
      {"pad6", tail::lds128, table_copy<tail::lds128, 0, 6, false>, false},
      {"pad7", tail::lds128, table_copy<tail::lds128, 0, 7, false>, false},
      {"pad8", tail::lds128, table_copy<tail::lds128, 0, 8, false>, false},
      {"pad16", tail::lds128, table_copy<tail::lds128, 0, 16, false>, false},
      {"stamps", tail::lds128, table_copy<tail::lds128, 0, 0, true>, true},
      {"stamps_ldsm_held", tail::ldsm_held, table_copy<tail::ldsm_held, 0, 0, true>, true},
  };
  std::vector<unsigned char> in(tile_bytes);
  for (int i = 0; i < tile_bytes; ++i) in[i] = static_cast<unsigned char>(i * 7 + i / 256 + 1);
  std::vector<std::vector<unsigned char>> wants;  // checked before the first CUDA call
  for (const layout& l : layouts) {
    std::vector<int> writes;
    wants.push_back(expected_output(l, in, writes));
    for (int b = 0; b < tile_bytes; ++b)
      if (writes[b] != 1) {
        std::fprintf(stderr, "copy_layout_probe: %s %s: output byte %d written %d times\n", l.name.c_str(),
                     l.kind.c_str(), b, writes[b]);
        return 1;
      }
  }
  std::fprintf(stderr, "copy_layout_probe: %zu layouts, each output byte written once\n", layouts.size());
  lane_table* table = nullptr;
  long long *cycles = nullptr, *stamps = nullptr;
  CHECK(cudaMalloc(&table, sizeof(lane_table) * threads));
  CHECK(cudaMalloc(&cycles, sizeof(long long)));
  CHECK(cudaMalloc(&stamps, sizeof(long long) * 4 * warps));
  std::printf("variant\tlayout\tkind\tround\tbest\tmedian\tstored\tpassed\tissued\tend\n");
  for (int round = 0; round < rounds; ++round)
    for (const variant& v : variants)
      for (std::size_t li = 0; li < layouts.size(); ++li) {
        const layout& l = layouts[li];
        const std::vector<unsigned char>& want = wants[li];
        if ((l.kind == "ldsm") != (v.kind != tail::lds128)) continue;
        if (v.name.rfind("extra", 0) == 0 || v.name.rfind("pad", 0) == 0)
          if (l.name != "sw64" && l.name != "ck_xor_2025" && l.name != "row_major") continue;
        CHECK(cudaMemcpy(table, l.lanes.data(), sizeof(lane_table) * threads, cudaMemcpyHostToDevice));
        std::vector<long long> spans;
        std::vector<std::vector<long long>> warp_stamps;
        for (int launch = 0; launch < launches; ++launch) {
          const fresh_run run = fresh_launch(in, cycles, [&](unsigned char* d_in, unsigned char* d_out) {
            v.kernel<<<1, threads>>>(table, d_in, d_out, 0u, cycles, stamps);
          });
          for (int b = 0; b < tile_bytes; ++b)
            if (run.out[b] != want[b]) {
              std::fprintf(stderr, "copy_layout_probe: %s %s %s: output byte %d is %d, the table implies %d\n",
                           v.name.c_str(), l.name.c_str(), l.kind.c_str(), b, run.out[b], want[b]);
              return 1;
            }
          spans.push_back(run.span);
          if (v.stamps) {
            std::vector<long long> s(4 * warps);
            CHECK(cudaMemcpy(s.data(), stamps, sizeof(long long) * s.size(), cudaMemcpyDeviceToHost));
            warp_stamps.push_back(s);
          }
        }
        std::printf("%s\t%s\t%s\t%d\t%lld\t%.0f", v.name.c_str(), l.name.c_str(), l.kind.c_str(), round,
                    *std::min_element(spans.begin(), spans.end()), median(spans));
        if (v.stamps) {  // per stamp: the median over launches of the median warp
          for (int k = 0; k < 4; ++k) {
            std::vector<long long> per_launch;
            for (const auto& s : warp_stamps) {
              std::vector<long long> w;
              for (int warp = 0; warp < warps; ++warp) w.push_back(s[4 * warp + k]);
              per_launch.push_back(static_cast<long long>(median(w)));
            }
            std::printf("\t%.0f", median(per_launch));
          }
        }
        std::printf("\n");
      }
  CHECK(cudaFree(table));
  CHECK(cudaFree(cycles));
  CHECK(cudaFree(stamps));
  return 0;
}
