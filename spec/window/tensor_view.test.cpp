// Laws of tensor_view.hpp: reads and writes never leave the buffer.
#include <doctest/doctest.h>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("view.at(top) is the element at calculate_offset(top): 4x4 row-major at {2, 1} is t[9]") {
  float t[16];
  for (int i = 0; i < 16; ++i) t[i] = static_cast<float>(i);
  const auto view = make_tensor_view(make_naive_descriptor_packed<2>({4, 4}), t, 16);
  CHECK(view.at({2, 1}) == 9.0f);
}

TEST_CASE("span_buffer: vector elements outside [0, size) load 0 and are not stored; an invalid vector is all 0") {
  int t[4] = {1, 2, 3, 4};
  const span_buffer<int> b{t, 3};
  int out[3] = {-1, -1, -1};
  b.load(1, 3, out, true);
  CHECK(out[0] == 2);
  CHECK(out[1] == 3);
  CHECK(out[2] == 0);
  b.load(-1, 2, out, true);
  CHECK(out[0] == 0);
  CHECK(out[1] == 1);
  b.load(0, 2, out, false);
  CHECK(out[0] == 0);
  CHECK(out[1] == 0);
  const int in[2] = {99, 98};
  b.store(2, 2, in, true);
  CHECK(t[2] == 99);
  CHECK(t[3] == 4);  // element 3 is outside the 3-element buffer: dropped
  b.store(0, 2, in, false);
  CHECK(t[0] == 1);
  b.add(-1, 2, in, true);
  CHECK(t[0] == 99);
}

TEST_CASE("a pad-invalid element reads 0 through view.at") {
  float t[6] = {1, 2, 3, 4, 5, 6};
  const auto base = make_naive_descriptor_packed<1>({6});
  const auto padded = transform_descriptor(base, step(make_right_pad(6, 2), {0}, {0}));
  const auto view = make_tensor_view(padded, t, 6);
  CHECK(view.at({5}) == 6.0f);
  CHECK(view.at({6}) == 0.0f);
}

TEST_CASE("a buffer smaller than the descriptor's element space is rejected with both sizes") {
  float t[8] = {};
  auto [r, m] = error_of([&] { (void)make_tensor_view(make_naive_descriptor_packed<2>({4, 4}), t, 8); });
  CHECK(r == rule::window_buffer_too_small);
  CHECK(m == "tilesim: tensor_view: the buffer holds fewer elements than the descriptor's space (buffer elements = 8, element space size = 16)");
}
