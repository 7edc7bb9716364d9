// tilesim/gpu/calibrate/ldmatrix_phase_probe.cu: how sm90 serves ldmatrix's 8x8 matrices: wavefronts of one
// ldmatrix.x1/.x2/.x4 (and of an LDS.128 at the same row addresses) for row patterns where LDS.128's paired phases
// would merge (issue 34 item 6: every lane naming one row; lanes in pairs or quads naming one row) and where they
// would not (distinct rows; a 2-way and an 8-way conflict in every 8-lane phase).
//
// Each launch is one warp issuing exactly one load instruction of the kind and pattern (its address-giving lanes:
// 8 per matrix); Nsight Compute counts it:
//   ncu --csv --metrics smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,
//       smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,
//       smsp__sass_inst_executed_op_shared_ld.sum ./ldmatrix_phase_probe
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o ldmatrix_phase_probe gpu/calibrate/ldmatrix_phase_probe.cu
// The launches are printed in order ("launch K: ldmatrix.x4 one-row") so ncu's rows (in launch order) map back.
#include <cstdio>

enum pattern { one_row, distinct_rows, pairs, quads, two_way, eight_way, patterns };
const char* const pattern_names[] = {"one-row", "distinct-rows", "pairs", "quads", "two-way", "eight-way"};

// The byte address (in a 16 KB tile) lane `lane` names under pattern p: rows are 16 bytes.
__device__ unsigned row_address(int p, unsigned lane) {
  switch (p) {
    case one_row: return 0;
    case distinct_rows: return lane * 16;                // 8 lanes: 128 consecutive bytes, every bank once
    case pairs: return (lane >> 1) * 16;                 // lane and lane ^ 1 name one row
    case quads: return (lane >> 2) * 16;                 // lanes 4k .. 4k+3 name one row
    case two_way: return (lane & 3) * 16 + ((lane >> 2) & 1) * 128 + (lane >> 3) * 256;  // 8 lanes: 4 bank quads, 2 rows each
    default: return (lane & 7) * 128 + (lane >> 3) * 16;  // eight_way: 8 lanes' rows 128 B apart, one bank quad
  }
}

template <int X, bool Ldsm>
__global__ void probe(int p, unsigned* out) {
  __shared__ __align__(16) unsigned char tile[16384];
  for (unsigned i = threadIdx.x; i < 16384 / 4; i += blockDim.x) reinterpret_cast<unsigned*>(tile)[i] = i;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31;
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + row_address(p, lane);
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (Ldsm) {
    if (X == 4)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(address));
    else if (X == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(address));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(address));
  } else {
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(address));
  }
  out[threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  int k = 0;
  auto run = [&](const char* kind, auto kernel) {
    for (int p = 0; p < patterns; ++p) {
      kernel<<<1, 32>>>(p, out);
      cudaDeviceSynchronize();
      std::printf("launch %d: %s %s\n", k++, kind, pattern_names[p]);
    }
  };
  run("ldmatrix.x4", probe<4, true>);
  run("ldmatrix.x2", probe<2, true>);
  run("ldmatrix.x1", probe<1, true>);
  run("LDS.128", probe<4, false>);
  const cudaError_t e = cudaGetLastError();
  std::printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
