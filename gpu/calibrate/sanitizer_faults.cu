// Two deliberate faults for compute-sanitizer's logs: a shared-memory race (racecheck) and a global store past
// its allocation (memcheck). argv[1]: "race" or "oob".
#include <cstdio>
#include <cstring>
__global__ void race(int* out) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x;      // warps 0 and 1 write the same words with no barrier between
  out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
__global__ void oob(int* out, int n) { out[threadIdx.x + n] = 1; }
int main(int argc, char** argv) {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  if (argc > 1 && std::strcmp(argv[1], "oob") == 0) oob<<<1, 64>>>(d, 64);
  else race<<<1, 64>>>(d);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("faults %s: %s\n", argc > 1 ? argv[1] : "race", cudaGetErrorString(e));
  return 0;
}
