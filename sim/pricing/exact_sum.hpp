// tilesim/sim/pricing/exact_sum.hpp: a sum of doubles that is exact, so any order and any split give one result.
//
// DEFINITION. exact_sum holds the mathematically exact sum of the finite doubles added to it, as a wide
// fixed-point integer in units of 2^-1074 (the smallest subnormal), one 32-bit digit per limb; value() rounds
// that sum once to the nearest double (ties to even). Adding, merging two sums and reading the value never
// round in between, so the result depends only on the multiset of addends: prices summed over workgroups on
// any number of threads, or over shards merged later, come out bit for bit the same. Non-finite addends
// (never made by the timing model) are summed separately in plain double arithmetic and dominate the value.
//
// WORKED EXAMPLE.
//   exact_sum s; s.add(1e16); s.add(1.0); s.add(-1e16);
//   s.value() == 1.0                    // plain doubles give 0.0 (1e16 + 1 rounds to 1e16)
//   exact_sum t = exact_sum::parse(s.text());   t.value() == 1.0   // the text form is exact too
//
// INVARIANTS: value() of one addend x is x; a.merge(b) equals adding b's addends to a in any order; parse(text())
// is the same sum; the text holds only the limbs that are not zero.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace tilesim::sim {

class exact_sum {
 public:
  // Adds x exactly (finite), or to the non-finite part.
  void add(double x);
  // Adds every addend of `other`.
  void merge(const exact_sum& other);
  // The exact sum rounded once to the nearest double.
  double value() const;
  bool operator==(const exact_sum& other) const;

  // An exact text form: "0" or "[-]L:HEX[,L:HEX...]" (limb index : 32-bit digit), non-finite part after ";".
  std::string text() const;
  // The sum `text` describes; throws std::invalid_argument naming the text when it is not one.
  static exact_sum parse(const std::string& text);

 private:
  static constexpr int limbs = 70;  // 2240 bits: 2^-1074 .. 2^1024 and 2^142 addends of headroom
  // Digits of the positive and the negative addends, each limb < 2^63 between normalizations.
  std::array<std::uint64_t, limbs> positive_{}, negative_{};
  std::uint32_t pending_ = 0;  // adds since the last carry propagation
  double non_finite_ = 0;
  bool has_non_finite_ = false;
  void normalize();
  static void carry(std::array<std::uint64_t, limbs>& digits);
};

}  // namespace tilesim::sim
