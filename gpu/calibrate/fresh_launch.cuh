// tilesim/gpu/calibrate/fresh_launch.cuh: one timed launch of a one-block copy on fresh buffers, as the cross-check
// launches its kernels; shared by copy_layout_probe.cu and copy_kernel_probe.cu.
//
// fresh_launch(in, cycles, launch): cudaMalloc two buffers of in.size() bytes, copy `in` into the first, zero the
// second, call launch(d_in, d_out) (which launches the kernel), wait, and return the second buffer's bytes and the
// span the kernel wrote to *cycles (device memory); both buffers are freed. median(spans) of the launches' spans.
// Every CUDA call is checked (cuda_check.cuh: exit 1 naming the call).
#pragma once

#include <algorithm>
#include <vector>

#include "cuda_check.cuh"  // found next to this header, with or without -I .

struct fresh_run {
  std::vector<unsigned char> out;  // the output buffer after the launch
  long long span = 0;              // the kernel's clock64 span (*cycles)
};

template <class Launch>
fresh_run fresh_launch(const std::vector<unsigned char>& in, long long* cycles, Launch&& launch) {
  unsigned char *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, in.size()));
  CHECK(cudaMalloc(&d_out, in.size()));
  CHECK(cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, in.size()));
  launch(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  fresh_run r;
  r.out.resize(in.size());
  CHECK(cudaMemcpy(r.out.data(), d_out, in.size(), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&r.span, cycles, sizeof r.span, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return r;
}

// The median of the launches' spans (the mean of the middle two for an even count): median({3, 1, 2}) == 2.
inline double median(std::vector<long long> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}
