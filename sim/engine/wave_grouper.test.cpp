// Laws of wave_grouper.hpp: grouping lane accesses as they arrive, in any interleaving that keeps each lane's
// order, gives exactly group_interval's instructions, alu tails, ambiguities and divergences (grouping.hpp, the
// per-lane definition by site and occurrence), on random access sets with sites, splits, masked lanes, lanes that
// skip or repeat accesses, disagreeing lanes and empty rows.
#include <doctest/doctest.h>

#include <random>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/grouping.hpp"
#include "sim/engine/wave_grouper.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

// Everything two groupings may differ in, field by field, as text (a failing check prints it).
std::string text_of(const grouping& g) {
  std::string s;
  auto alu = [](const alu_work& a) {
    return std::to_string(a.fma) + "/" + std::to_string(a.integer) + "/" + std::to_string(a.shuffle) + "/" +
           std::to_string(a.matrix);
  };
  for (const wave_record& w : g.waves) {
    s += "wave " + std::to_string(w.wave) + " lanes " + std::to_string(w.lanes) + "\n";
    for (const wave_instruction& i : w.instructions) {
      s += "  " + std::to_string(i.interval) + ":" + std::to_string(i.position) + " '" + i.access.label + "' " +
           kind_name(i.access.kind) + " " + space_name(i.access.space) + " w" + std::to_string(i.access.width) + " b" +
           std::to_string(i.buffer) + (i.atomic ? " atomic" : "") + (i.matrix_access ? " matrix" : "") +
           (i.access.matrix_access ? " priced-as-matrix" : "") + " alu " +
           alu(i.alu_before) + " @";
      for (address_t a : i.access.address) s += " " + (a == no_address ? std::string("-") : std::to_string(a));
      s += "\n";
    }
    for (const alu_work& t : w.alu_tail) s += "  tail " + alu(t) + "\n";
  }
  for (const ambiguity& a : g.ambiguities) {
    s += "ambiguity " + std::to_string(a.wave) + ":" + std::to_string(a.interval) + ":" + std::to_string(a.position);
    for (const id_group& l : a.lanes) {
      s += " [" + l.what + ":";
      for (int id : l.ids) s += " " + std::to_string(id);
      s += "]";
    }
    s += "\n";
  }
  for (const divergence& d : g.divergences) {
    s += "divergence " + std::to_string(d.wave) + ":" + std::to_string(d.interval);
    for (const id_group& l : d.lanes) {
      s += " [" + l.what + ":";
      for (int id : l.ids) s += " " + std::to_string(id);
      s += "]";
    }
    s += "\n";
  }
  return s;
}

// A random access; with probability `agree` the position's template (lanes mostly do the same thing).
lane_access random_access(std::mt19937& rng, const lane_access& templ, double agree) {
  std::uniform_real_distribution<double> p(0, 1);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  lane_access a = templ;
  if (p(rng) >= agree) {
    a.label = pick(3);
    const std::uint32_t widths[] = {4, 8, 12, 16, 32, 40};
    a.width = widths[pick(6)];
    a.kind = pick(2) ? access_kind::store : access_kind::load;
    a.space = pick(2) ? memory_space::global : memory_space::lds;
    a.atomic = pick(5) == 0;
    a.matrix_access = pick(6) == 0;
    a.buffer = pick(2);
    static const char* const files[] = {"a.cpp", "b.cpp"};
    a.site = {files[pick(2)], pick(3)};
  }
  a.active = pick(6) != 0;
  a.address = pick(10) == 0 ? no_address : static_cast<address_t>(pick(64) * 4);
  a.alu_before = {static_cast<std::uint32_t>(pick(3)), static_cast<std::uint32_t>(pick(2)), 0,
                  static_cast<std::uint32_t>(pick(2))};
  return a;
}

}  // namespace

TEST_CASE("wave_grouper: any interleaving of the lanes' accesses groups exactly as group_interval (random sets)") {
  const std::vector<std::string> labels{"", "a", "b"};
  std::mt19937 rng(15);
  std::size_t ambiguous = 0, diverged = 0, skipped = 0;  // the trials reach every path
  for (int trial = 0; trial < 3000; ++trial) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const int sizes[] = {1, 2, 3, 4, 8, 32, 64};
    const int wave_size = sizes[pick(7)];
    const int threads = 1 + pick(2 * wave_size);
    const int splits[] = {0, 4, 16};
    const int split = splits[pick(3)];
    const bool empty_issue = pick(2) == 0;
    const double agree = trial % 3 == 0 ? 1.0 : trial % 3 == 1 ? 0.9 : 0.5;
    const int positions = pick(6);
    std::vector<lane_access> templ(static_cast<std::size_t>(positions));
    for (lane_access& t : templ) t = random_access(rng, lane_access{}, 0.0);
    std::vector<std::vector<lane_access>> acc(static_cast<std::size_t>(threads));
    std::vector<alu_work> tails(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) {
      const int n = pick(4) == 0 ? pick(positions + 2) : positions;  // some lanes diverge
      for (int k = 0; k < n; ++k)
        acc[static_cast<std::size_t>(t)].push_back(
            random_access(rng, k < positions ? templ[static_cast<std::size_t>(k)] : templ.empty() ? lane_access{} : templ[0], agree));
      if (pick(2)) tails[static_cast<std::size_t>(t)] = {static_cast<std::uint32_t>(pick(4)), 0, static_cast<std::uint32_t>(pick(2)), 0};
    }
    const int interval = pick(3);

    grouping expected;
    std::vector<std::span<const lane_access>> spans;
    for (const auto& a : acc) spans.emplace_back(a);
    group_interval(spans, 7, wave_size, interval, split, labels, tails, expected, empty_issue);

    grouping got;
    std::vector<wave_grouper> groupers;
    for (int first = 0; first < threads; first += wave_size) {
      const int lanes = std::min(wave_size, threads - first);
      groupers.emplace_back(lanes, wave_size, split, empty_issue, &labels);
      got.waves.push_back({first / wave_size, lanes, {}, {}});
    }
    std::vector<std::size_t> next(static_cast<std::size_t>(threads), 0);
    std::size_t left = 0;
    for (const auto& a : acc) left += a.size();
    for (; left > 0; --left) {  // a random lane with accesses left takes its next one
      int t = pick(threads);
      while (next[static_cast<std::size_t>(t)] == acc[static_cast<std::size_t>(t)].size()) t = (t + 1) % threads;
      groupers[static_cast<std::size_t>(t / wave_size)].add(t % wave_size, acc[static_cast<std::size_t>(t)][next[static_cast<std::size_t>(t)]++]);
    }
    for (std::size_t w = 0; w < groupers.size(); ++w) {
      const std::span<const alu_work> wave_tails(tails.data() + w * static_cast<std::size_t>(wave_size),
                                                 static_cast<std::size_t>(got.waves[w].lanes));
      groupers[w].finish(7, static_cast<int>(w), interval, wave_tails, got.waves[w], got.ambiguities, got.divergences);
    }
    INFO("trial ", trial, ", wave size ", wave_size, ", threads ", threads, ", split ", split);
    REQUIRE(text_of(got) == text_of(expected));
    ambiguous += expected.ambiguities.size();
    diverged += expected.divergences.size();
    for (const wave_record& w : expected.waves)
      for (const wave_instruction& i : w.instructions) skipped += !empty_issue && i.position > 0 && i.position != (&i - w.instructions.data());
  }
  CHECK(ambiguous > 100);
  CHECK(diverged > 100);
  CHECK(skipped > 10);
}

TEST_CASE("wave_grouper: a lower lane arriving after a higher one becomes the reference; the worked example") {
  const std::vector<std::string> labels{"", "st", "ld"};
  wave_grouper g(4, 4, 16, true, &labels);
  lane_access store;
  store.label = 1, store.width = 4, store.kind = access_kind::store, store.active = true;
  lane_access s1 = store, s0 = store;
  s1.address = 4, s0.address = 0;
  lane_access load;
  load.label = 2, load.width = 32, load.active = true, load.address = 64;
  g.add(1, s1);
  g.add(0, s0);
  g.add(0, load);
  grouping out;
  out.waves.push_back({0, 4, {}, {}});
  g.finish(0, 0, 0, {}, out.waves[0], out.ambiguities, out.divergences);
  const std::vector<wave_instruction>& ins = out.waves[0].instructions;
  REQUIRE(ins.size() == 3);
  CHECK(ins[0].access.address == std::vector<address_t>{0, 4, no_address, no_address});
  CHECK(ins[1].access.address == std::vector<address_t>{64, no_address, no_address, no_address});
  CHECK(ins[2].access.address == std::vector<address_t>{80, no_address, no_address, no_address});
  CHECK(ins[2].access.width == 16);
  CHECK(out.ambiguities.empty());
  REQUIRE(out.divergences.size() == 1);
  REQUIRE(out.divergences[0].lanes.size() == 3);
  CHECK(out.divergences[0].lanes[0].what == "0 instructions");
  CHECK(out.divergences[0].lanes[0].ids == std::vector<int>{2, 3});
  CHECK(out.divergences[0].lanes[2].what == "3 instructions");
}
