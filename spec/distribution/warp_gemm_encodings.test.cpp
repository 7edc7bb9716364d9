// The matrix instructions' register layouts as encodings (warp_gemm_encodings.hpp). Law: for every lane l and
// element d, x_of(encoding, l, y_of(d)) is the element the vendor's table gives that lane's d-th slot, and the
// encoding covers its matrix exactly once.
#include "spec/distribution/warp_gemm_encodings.hpp"

#include <doctest/doctest.h>

#include <set>
#include <utility>

using namespace tilesim;

namespace {
using enc = tile_distribution_encoding;
using xy = std::pair<index_t, index_t>;

xy at(const enc& e, index_t lane, index_t d) {
  const auto x = e.x_of({lane, 0}, e.y_of(d));
  return {x[0], x[1]};
}

// Every (lane, d) lands inside rows x cols, and the tile is covered exactly once.
void check_covers_once(const enc& e, index_t wave, index_t per_lane, index_t rows, index_t cols) {
  REQUIRE(e.n_p == 1);
  REQUIRE(e.n_r == 0);
  REQUIRE(e.p_length(0) == wave);
  REQUIRE(e.elements_per_thread() == per_lane);
  REQUIRE(e.x_length(0) == rows);
  REQUIRE(e.x_length(1) == cols);
  std::set<xy> seen;
  for (index_t l = 0; l < wave; ++l)
    for (index_t d = 0; d < per_lane; ++d) {
      const xy x = at(e, l, d);
      CHECK(x.first >= 0);
      CHECK(x.first < rows);
      CHECK(x.second >= 0);
      CHECK(x.second < cols);
      seen.insert(x);
    }
  CHECK(static_cast<index_t>(seen.size()) == rows * cols);
}
}  // namespace

TEST_CASE("mma.sync m16n8k16 encodings give each lane the PTX ISA's fragment elements, in register order") {
  const enc a = make_mma_m16n8k16_a_encoding(), b = make_mma_m16n8k16_b_encoding(), c = make_mma_m16n8k16_c_encoding();
  check_covers_once(a, 32, 8, 16, 16);
  check_covers_once(b, 32, 4, 8, 16);
  check_covers_once(c, 32, 4, 16, 8);
  CHECK(at(a, 5, 2) == xy{9, 2});
  CHECK(at(b, 5, 3) == xy{1, 11});
  CHECK(at(c, 5, 2) == xy{9, 2});
  for (index_t l = 0; l < 32; ++l) {
    const index_t g = l / 4, q = l % 4;
    for (index_t kh = 0; kh < 2; ++kh)
      for (index_t e = 0; e < 2; ++e) {
        for (index_t h = 0; h < 2; ++h) CHECK(at(a, l, 4 * kh + 2 * h + e) == xy{g + 8 * h, 2 * q + e + 8 * kh});
        CHECK(at(b, l, 2 * kh + e) == xy{g, 2 * q + e + 8 * kh});
        CHECK(at(c, l, 2 * kh + e) == xy{g + 8 * kh, 2 * q + e});  // (kh plays C's h here)
      }
  }
}

TEST_CASE("MFMA 32x32x8 f16 encodings match the CDNA3 ISA table: A(l%32, 4(l/32)+d), B(n l%32, k 4(l/32)+d), "
          "c[4i+j] = C(8i+4(l/32)+j, l%32)") {
  const enc a = make_mfma_32x32x8_a_encoding(), b = make_mfma_32x32x8_b_encoding(), c = make_mfma_32x32x8_c_encoding();
  check_covers_once(a, 64, 4, 32, 8);
  check_covers_once(b, 64, 4, 32, 8);
  check_covers_once(c, 64, 16, 32, 32);
  CHECK(at(b, 33, 1) == xy{1, 5});
  for (index_t l = 0; l < 64; ++l) {
    for (index_t d = 0; d < 4; ++d) {
      CHECK(at(a, l, d) == xy{l % 32, 4 * (l / 32) + d});
      CHECK(at(b, l, d) == xy{l % 32, 4 * (l / 32) + d});
    }
    for (index_t i = 0; i < 4; ++i)
      for (index_t j = 0; j < 4; ++j) CHECK(at(c, l, 4 * i + j) == xy{8 * i + 4 * (l / 32) + j, l % 32});
  }
}

TEST_CASE("MFMA 32x32x8 iterated twice over K (CK's M32N32K16): lane l holds A(l%32, 8(l/32)+d), d < 8, and its "
          "first MFMA's slots d 0-3 are a K-permutation of the plain 32x32x8 A's") {
  const enc a = make_mfma_32x32x16_iterate_k_a_encoding();
  check_covers_once(a, 64, 8, 32, 16);
  CHECK(at(a, 33, 5) == xy{1, 13});
  for (index_t l = 0; l < 64; ++l)
    for (index_t d = 0; d < 8; ++d) CHECK(at(a, l, d) == xy{l % 32, 8 * (l / 32) + d});
}

TEST_CASE("MFMA 16x16x16 f16 encodings match the CDNA3 ISA table: A(l%16, 4(l/16)+d), B(n l%16, k 4(l/16)+d), "
          "c[j] = C(4(l/16)+j, l%16)") {
  const enc a = make_mfma_16x16x16_a_encoding(), b = make_mfma_16x16x16_b_encoding(), c = make_mfma_16x16x16_c_encoding();
  check_covers_once(a, 64, 4, 16, 16);
  check_covers_once(b, 64, 4, 16, 16);
  check_covers_once(c, 64, 4, 16, 16);
  CHECK(at(a, 17, 2) == xy{1, 6});
  CHECK(at(c, 17, 2) == xy{6, 1});
  for (index_t l = 0; l < 64; ++l)
    for (index_t d = 0; d < 4; ++d) {
      CHECK(at(a, l, d) == xy{l % 16, 4 * (l / 16) + d});
      CHECK(at(b, l, d) == xy{l % 16, 4 * (l / 16) + d});
      CHECK(at(c, l, d) == xy{4 * (l / 16) + d, l % 16});
    }
}
