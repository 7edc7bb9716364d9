// gpu/calibrate/o3-probe/standalone_attempt.cu: a tilesim-free attempt at reproducing the old failure (README.md):
// nested std::initializer_list arguments consumed in an out-of-line device function. It PASSES at -O3 on an
// H100 (2026-11-24): not a reproducer. Build: nvcc -std=c++20 -O3 -arch=sm_90 standalone_attempt.cu
#include <cstdio>
#include <initializer_list>
struct rh { int major, minor; };
struct enc { int n_r; long r[8]; int n_x; int n_h[4]; long h[4][8]; int n_p; int p_size[2]; rh p[2][8]; int n_y; rh y[8]; };
__device__ __forceinline__ void check(bool ok, int a, long b) {
  if (!ok) { printf("list %d: size %ld > 8\n", a, b); __trap(); }
}
__device__ enc make(std::initializer_list<long> rs, std::initializer_list<std::initializer_list<long>> hs,
                    std::initializer_list<std::initializer_list<rh>> ps, std::initializer_list<rh> ys) {
  enc e{};
  e.n_r = rs.size(), e.n_x = hs.size(), e.n_p = ps.size(), e.n_y = ys.size();
  int k = 0, i = 0;
  for (long v : rs) e.r[k++] = v;
  for (const auto& l : hs) { check(l.size() <= 8, i, l.size()); e.n_h[i] = l.size(); k = 0; for (long v : l) e.h[i][k++] = v; ++i; }
  i = 0;
  for (const auto& l : ps) { check(l.size() <= 8, 10 + i, l.size()); e.p_size[i] = l.size(); k = 0; for (rh v : l) e.p[i][k++] = v; ++i; }
  k = 0;
  for (rh c : ys) e.y[k++] = c;
  return e;
}
__device__ __noinline__ float body(const long& c, const long& w, const long& r, const long& kb, const float* x, int t) {
  const enc a = make({c}, {{w, r}, {kb}}, {{{1, 0}}, {{1, 1}, {0, 0}}}, {{2, 0}});
  const enc b = make({w, r}, {{c}, {kb}}, {{{0, 0}}, {{0, 1}, {1, 0}}}, {{2, 0}});
  float acc = 0;
  for (long j = 0; j < a.h[1][0]; ++j) acc += x[t * a.h[1][0] + j] * b.h[0][0];
  return acc + a.n_h[0] + b.n_h[1] + a.p_size[1] + b.y[0].major;
}
__global__ void kernel(const long* q, const float* x, float* out) {
  out[threadIdx.x] = body(q[0], q[1], q[2], q[3], x, threadIdx.x);
}
int main() {
  const long q[4] = {8, 2, 4, 12};
  long* dq; float *dx, *dout;
  cudaMalloc(&dq, sizeof q); cudaMalloc(&dx, 16 * 12 * sizeof(float)); cudaMalloc(&dout, 16 * sizeof(float));
  cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice); cudaMemset(dx, 0, 16 * 12 * sizeof(float));
  kernel<<<1, 16>>>(dq, dx, dout);
  const cudaError_t e = cudaDeviceSynchronize();
  float out[16];
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  std::printf("%s: out[0] = %g (expected %g)\n", cudaGetErrorString(e), out[0], 2.0 + 1 + 2 + 2);
  return e != cudaSuccess || out[0] != 7.0f;
}
