// Laws of grid_touches.hpp: the compact summary finds exactly the bytes the full race search reports.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "sim/engine/grid_touches.hpp"
#include "sim/engine/races.hpp"

using namespace tilesim::sim;

namespace {

// Random global touches of `blocks` workgroups on bytes [0, span): reads, writes and atomic adds.
std::vector<std::vector<touch>> random_touches(std::mt19937& rng, int blocks, int per_block, address_t span) {
  std::vector<std::vector<touch>> out(static_cast<std::size_t>(blocks));
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < per_block; ++i) {
      touch t;
      t.begin = rng() % span;
      t.end = std::min<address_t>(span, t.begin + 1 + rng() % 12);
      t.space = memory_space::global;
      const unsigned kind = rng() % 5;
      t.write = kind >= 2;
      t.atomic = kind == 4;
      t.block = b;
      t.thread = static_cast<int>(rng() % 8);
      out[static_cast<std::size_t>(b)].push_back(t);
    }
  return out;
}

// The bytes of a range list, one by one.
std::set<address_t> bytes_of(const byte_ranges& r) {
  std::set<address_t> s;
  for (const auto& [b, e] : r)
    for (address_t x = b; x < e; ++x) s.insert(x);
  return s;
}

}  // namespace

TEST_CASE("grid touches: conflicts() are exactly the bytes find_races(across_workgroups) reports") {
  // The law that lets a streamed run drop the trace: a byte is in some cross-workgroup race iff the per-kind
  // block summaries of the bytes' touches conflict.
  std::mt19937 rng(15);
  const std::vector<std::string> labels{""};
  const race_naming naming{&labels, 64, nullptr};
  for (int trial = 0; trial < 300; ++trial) {
    const int blocks = 2 + trial % 4;
    const auto per_block = random_touches(rng, blocks, 1 + trial % 7, 64);
    grid_touch_map map;
    std::vector<touch> all;
    for (int b = 0; b < blocks; ++b) {
      map.add_workgroup(b, per_block[static_cast<std::size_t>(b)]);
      all.insert(all.end(), per_block[static_cast<std::size_t>(b)].begin(), per_block[static_cast<std::size_t>(b)].end());
    }
    std::set<address_t> raced;
    for (const race& r : find_races(all, race_scope::across_workgroups, naming))
      for (tilesim::index_t x = r.begin; x < r.end; ++x) raced.insert(static_cast<address_t>(x));
    CHECK(bytes_of(map.conflicts()) == raced);
    std::set<address_t> written;
    for (const touch& t : all)
      if (t.write)
        for (address_t x = t.begin; x < t.end; ++x) written.insert(x);
    CHECK(bytes_of(map.written()) == written);
  }
}

TEST_CASE("grid touches: adding workgroups to several maps and merging them gives the one map, in any order") {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 100; ++trial) {
    const auto per_block = random_touches(rng, 6, 5, 200);
    grid_touch_map one, left, right;
    for (int b = 0; b < 6; ++b) one.add_workgroup(b, per_block[static_cast<std::size_t>(b)]);
    for (int b = 5; b >= 0; --b) (rng() % 2 ? left : right).add_workgroup(b, per_block[static_cast<std::size_t>(b)]);
    right.merge(left);
    CHECK(right == one);
    CHECK(grid_touch_map::parse(one.text()) == one);
  }
}

TEST_CASE("grid touches: the worked example; one workgroup never conflicts with itself; bad texts are named") {
  grid_touch_map m;
  auto t = [](address_t b, address_t e, bool write, bool atomic) {
    touch x;
    x.begin = b, x.end = e, x.write = write, x.atomic = atomic, x.space = memory_space::global;
    return x;
  };
  m.add_workgroup(0, {t(0, 64, true, false), t(0, 64, false, false)});  // its own reads and writes never race
  m.add_workgroup(1, {t(32, 96, false, false)});
  m.add_workgroup(2, {t(200, 208, true, true)});
  m.add_workgroup(3, {t(200, 208, true, true)});
  CHECK(m.conflicts() == byte_ranges{{32, 64}});
  CHECK(m.written() == byte_ranges{{0, 64}, {200, 208}});
  CHECK(m.text() == "0:0/0/-;32:0+/0/-;64:1/-/-;96:-/-/-;200:-/-/2+;208:-/-/-");
  CHECK_THROWS_WITH_AS(grid_touch_map::parse("5:x/-/-;9:-/-/-"), "grid touches: bad workgroup summary 'x' in run '5:x/-/-'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(grid_touch_map::parse("5:1/-/-"), "grid touches: the last run must be empty (it ends the map)",
                       std::invalid_argument);
  CHECK_THROWS_AS(grid_touch_map::parse("9:-/-/-;5:-/-/-"), std::invalid_argument);
}

TEST_CASE("grid touches: a workgroup's touches added at once (dense: by bitmap; sparse: sorted) equal them added one by one") {
  std::mt19937 rng(1515);
  for (int trial = 0; trial < 400; ++trial) {
    const address_t span = trial % 2 ? 300 : address_t{1} << (20 + trial % 8);  // dense, then sparse too
    const auto touches = random_touches(rng, 1, 1 + static_cast<int>(rng() % 60), span)[0];
    grid_touch_map all, each;
    all.add_workgroup(3, touches);
    for (const touch& t : touches) each.add_workgroup(3, {t});
    INFO("trial ", trial);
    REQUIRE(all.text() == each.text());
  }
}
