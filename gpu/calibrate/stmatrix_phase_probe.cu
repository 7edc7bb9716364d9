// tilesim/gpu/calibrate/stmatrix_phase_probe.cu: how sm90 serves stmatrix's 8x8 matrices: wavefronts of one
// stmatrix.x1/.x2/.x4 (and of an STS.128 at the same row addresses) in ldmatrix_phase_probe.cu's row patterns:
// every lane naming one row; lanes in pairs or quads naming one row; distinct rows; a 2-way and an 8-way conflict
// in every 8-lane phase (issue 34 item 6, the stmatrix half: until this runs, the simulator's stmatrix price is
// assumed to mirror ldmatrix's measurement, each 8x8 matrix its own phase).
//
// Each launch is one warp issuing exactly one store instruction of the kind and pattern (its address-giving lanes:
// 8 per matrix) and no other shared-memory instruction (the tile is not initialised: stores need no contents);
// Nsight Compute counts it. Built with the GPU part (gpu/meson.build: build/gpu/stmatrix_phase_probe); by hand:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o stmatrix_phase_probe gpu/calibrate/stmatrix_phase_probe.cu
// Run (scripts/calibrate/matrix_phase_tsv.py turns the two outputs into data/calibration/h200-stmatrix-phases.tsv):
//   ncu --csv --log-file ncu.csv --metrics smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,
//       smsp__sass_inst_executed_op_stsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,
//       smsp__sass_inst_executed_op_shared_st.sum ./stmatrix_phase_probe > launches.txt
// The launches are printed in order ("launch K: stmatrix.x4 one-row") so ncu's rows (in launch order) map back.
#include <cstdio>

enum pattern { one_row, distinct_rows, pairs, quads, two_way, eight_way, patterns };
const char* const pattern_names[] = {"one-row", "distinct-rows", "pairs", "quads", "two-way", "eight-way"};

// The byte address (in a 16 KB tile) lane `lane` names under pattern p: ldmatrix_phase_probe.cu's row_address.
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

template <int X, bool Stsm>
__global__ void probe(int p, unsigned* out) {
  __shared__ __align__(16) unsigned char tile[16384];
  const unsigned lane = threadIdx.x & 31;
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + row_address(p, lane);
  const unsigned r0 = lane, r1 = lane + 32, r2 = lane + 64, r3 = lane + 96;
  if (Stsm) {
    if (X == 4)
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                   ::"r"(address), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    else if (X == 2)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(address), "r"(r0), "r"(r1) : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(address), "r"(r0) : "memory");
  } else {
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
  }
  out[threadIdx.x] = address;
}

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  int k = 0;
  auto run = [&](const char* kind, void (*kernel)(int, unsigned*)) {
    for (int p = 0; p < patterns; ++p) {
      kernel<<<1, 32>>>(p, out);
      cudaDeviceSynchronize();
      std::printf("launch %d: %s %s\n", k++, kind, pattern_names[p]);
    }
  };
  run("stmatrix.x4", probe<4, true>);
  run("stmatrix.x2", probe<2, true>);
  run("stmatrix.x1", probe<1, true>);
  run("STS.128", probe<4, false>);
  const cudaError_t e = cudaGetLastError();
  std::printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
