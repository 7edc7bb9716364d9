// Laws of transforms/modulo.hpp: one dimension wrapped around a modulus.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("modulo(3, 6) maps 0 1 2 3 4 5 to 0 1 2 0 1 2, and -1 to 2 (floor mod)") {
  constexpr modulo t = make_modulo(3, 6);
  static_assert(t.lower_index({4}) == multi_index<1>{1});
  CHECK(t.upper_lengths() == multi_index<1>{6});
  const index_t expected[6] = {0, 1, 2, 0, 1, 2};
  for (index_t u = 0; u < 6; ++u) CHECK(t.lower_index({u}) == multi_index<1>{expected[u]});
  CHECK(t.lower_index({-1}) == multi_index<1>{2});
}

TEST_CASE("CK misbehaviour: a modulo move from 4 by 5 lands on 9 mod 3 = 0, not CK's (9 + 5) mod 3 = 2") {
  const modulo t = make_modulo(3, 6);
  multi_index<1> low = t.lower_index({4});
  CHECK(t.update_lower_index({5}, {9}, low) == multi_index<1>{-1});
  CHECK(low == multi_index<1>{0});
}

TEST_CASE("CK misbehaviour: modulo under move equals fresh evaluation, for every start and step") {
  const modulo t = make_modulo(3, 6);
  for (index_t u = -4; u < 10; ++u)
    for (index_t d = -7; d <= 7; ++d) {
      multi_index<1> low = t.lower_index({u});
      const multi_index<1> before = low;
      const multi_index<1> step = t.update_lower_index({d}, {u + d}, low);
      CHECK(low == t.lower_index({u + d}));
      CHECK(step == low - before);
    }
}

TEST_CASE("CK misbehaviour: a coordinate through modulo(3, 6) moved from 4 by 5 equals the fresh coordinate of 9") {
  const auto d = transform_descriptor(make_naive_descriptor_packed<1>({3}), step(make_modulo(3, 6), {0}, {0}));
  auto c = d.make_coordinate({4});
  CHECK(c.offset() == 1);
  CHECK(d.move(c, {5}) == -1);
  CHECK(c == d.make_coordinate({9}));
  CHECK(c.offset() == 0);
}

TEST_CASE("modulo is not invertible") {
  static_assert(coordinate_transform<modulo>);
  static_assert(!invertible_transform<modulo>);
  CHECK(make_modulo(3, 6).lower_index({1}) == make_modulo(3, 6).lower_index({4}));
}

TEST_CASE("modulo passes no vector guarantee, as CK: modulo(16, 32) over an 8-vector gives none") {
  // CK: coordinate_transform.hpp, modulo inherits base_transform's calculate_upper_dimension_safe_vector_length_strides
  // (-1) in every version read; spec/'s former gcd(V, m) was sound but wider than what CK's kernel issues.
  const vector_guarantees<1> v8{{{8, 1}}};
  CHECK(make_modulo(4, 16).upper_vectors(v8)[0] == vector_guarantee{unknown, unknown});
  CHECK(make_modulo(16, 32).upper_vectors(v8)[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("a negative upper index is where CK's truncating % differs: -1 mod 3 is 2 here, -1 in CK") {
  const modulo t = make_modulo(3, 6);
  CHECK(t.lower_index({-1}) == multi_index<1>{2});
  CHECK(t.ck_index_differs({-1}));
  CHECK_FALSE(t.ck_index_differs({-3}));  // -3 % 3 == 0 either way
  CHECK_FALSE(t.ck_index_differs({4}));
}

TEST_CASE("modulo prints as make_modulo(3, 6); make_modulo(0, 6) throws modulus_not_positive naming m") {
  CHECK(make_modulo(3, 6).cpp() == "make_modulo(3, 6)");
  const auto [broken, message] = error_of([] { (void)make_modulo(0, 6); });
  CHECK(broken == rule::modulus_not_positive);
  CHECK(message == "tilesim: modulo: the modulus m must be >= 1 (m = 0)");
  CHECK(error_of([] { (void)make_modulo(3, 0); }).first == rule::length_not_positive);
}
