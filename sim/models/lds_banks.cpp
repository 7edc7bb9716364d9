// tilesim/sim/models/lds_banks.cpp: phases, distinct words per bank, and sm90's paired loads (lds_banks.hpp).
#include "sim/models/lds_banks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

namespace tilesim::sim {
namespace {

using lane_span = std::span<const int>;

// A misaligned 16-byte lane touches 5 words; no phase serves more than a wave of lanes.
constexpr int max_units = max_wave_size * 5;

// Counts, for a set of lanes, the largest number of distinct words one bank must serve. It counts in
// "units": aligned blocks of `unit` bytes. When every active lane's access is one aligned block of its
// width (the usual case), a unit is that block: it covers unit/4 adjacent banks in one row, so distinct
// units per bank group equal distinct words per bank, and a 16-byte lane costs one insertion instead of
// four. Otherwise a unit is one 4-byte word and each lane inserts every word it touches.
class bank_counter {
 public:
  // `aligned`: every active address is a multiple of the width (a power of two, so the unit is a shift).
  bank_counter(const wave_access& access, int banks, bool aligned)
      : address_(access.address.data()), width_(access.width) {
    unit_shift_ = aligned && width_ >= 4 && width_ <= banks * 4 ? std::countr_zero(static_cast<unsigned>(width_)) : 2;
    groups_ = (banks * 4) >> unit_shift_;
  }

  // Largest distinct-units-per-group over the active lanes of `first` and `second`; 0 if none is active.
  int ways(lane_span first, lane_span second = {}) {
    occupied_ = 0;
    used_ = 0;
    best_ = 0;
    add(first);
    add(second);
    return occupied_ ? std::max(best_, 1) : 0;
  }

 private:
  // Group g's first unit lives in first_unit_[g] (bit g of occupied_ says it is there); further distinct
  // units of the group form a list through extra_head_[g] and next_: conflicts are rare, repeats common.
  void add(lane_span lanes) {
    const address_t group_mask = static_cast<address_t>(groups_ - 1);
    const address_t span = static_cast<address_t>(width_ - 1);
    for (int lane : lanes) {
      const address_t a = address_[lane];
      if (a == no_address) continue;
      const address_t last = (a + span) >> unit_shift_;
      for (address_t u = a >> unit_shift_; u <= last; ++u) {
        const std::size_t g = static_cast<std::size_t>(u & group_mask);
        const std::uint64_t bit = std::uint64_t{1} << g;
        if (!(occupied_ & bit)) {
          occupied_ |= bit;
          first_unit_[g] = u;
          extra_head_[g] = -1;
          count_[g] = 1;
          continue;
        }
        if (first_unit_[g] == u) continue;
        bool seen = false;
        for (int e = extra_head_[g]; e >= 0; e = next_[static_cast<std::size_t>(e)])
          if (unit_id_[static_cast<std::size_t>(e)] == u) {
            seen = true;
            break;
          }
        if (seen) continue;
        unit_id_[static_cast<std::size_t>(used_)] = u;
        next_[static_cast<std::size_t>(used_)] = extra_head_[g];
        extra_head_[g] = used_++;
        best_ = std::max(best_, ++count_[g]);
      }
    }
  }

  const address_t* address_;
  int width_;
  int unit_shift_ = 2;  // log2 of the unit's bytes
  int groups_ = 1;      // <= max_banks
  std::uint64_t occupied_ = 0;
  int used_ = 0, best_ = 0;
  // Scratch, deliberately left uninitialized (zeroing 4 KB per instruction was a third of the time):
  // an entry is read only after it was written for the current call.
  std::array<address_t, max_banks> first_unit_;
  std::array<int, max_banks> extra_head_, count_;
  std::array<address_t, max_units> unit_id_;
  std::array<int, max_units> next_;
};

// Every active lane whose partner lane^x is active has the partner's address: {0, 0, 16, 16} holds for x = 1.
bool pairs_hold(const wave_access& access, lane_span lanes, int x) {
  for (int lane : lanes) {
    const address_t a = access.address[static_cast<std::size_t>(lane)];
    const address_t p = access.address[static_cast<std::size_t>(lane ^ x)];
    if (a != no_address && p != no_address && a != p) return false;
  }
  return true;
}

struct prescan {
  int active = 0;        // lanes that take part
  bool aligned = true;   // every active address is a multiple of the width
};

// One pass over the lanes: the record's invariants (else std::invalid_argument), active lanes, alignment.
prescan scan(const arch_table& arch, const wave_access& access) {
  if (access.address.size() != static_cast<std::size_t>(arch.wave_size))
    throw std::invalid_argument(std::string(arch.name) + ": the access has " + std::to_string(access.address.size()) +
                                " lane addresses, a wave has " + std::to_string(arch.wave_size));
  (void)arch.lds_rule(access.kind, access.width);  // throws for a width that is not 1, 2, 4, 8, 16
  const address_t misaligned = static_cast<address_t>(access.width - 1);
  const address_t highest = std::numeric_limits<address_t>::max() - static_cast<address_t>(access.width);
  prescan p;
  bool overflow = false;
  for (address_t a : access.address) {
    if (a == no_address) continue;
    ++p.active;
    p.aligned = p.aligned && (a & misaligned) == 0;
    overflow = overflow || a > highest;
  }
  if (overflow)
    for (std::size_t lane = 0; lane < access.address.size(); ++lane)
      if (access.address[lane] != no_address && access.address[lane] > highest)
        throw std::invalid_argument("lane " + std::to_string(lane) + ": address " +
                                    std::to_string(access.address[lane]) + " + width " +
                                    std::to_string(access.width) + " overflows 64 bits");
  return p;
}

// Prices `access`; calls on_served(first, second, ways, merged) for each phase of the counted view.
template <class OnServed>
lds_cost price(const arch_table& arch, const wave_access& access, OnServed&& on_served) {
  const prescan pre = scan(arch, access);
  const lds_phase_rule& rule = arch.lds_rule(access.kind, access.width);
  lds_cost c;
  c.active = pre.active;
  if (pre.active == 0) {
    for (const std::vector<int>& p : rule.phases) on_served(lane_span(p), lane_span(), 0, false);
    return c;
  }
  bank_counter counter(access, rule.banks, pre.aligned);
  const int phases = static_cast<int>(rule.phases.size());
  std::array<int, max_wave_size> phase_ways;  // written for p < phases before any read
  auto phase = [&](int p) { return lane_span(rule.phases[static_cast<std::size_t>(p)]); };
  for (int p = 0; p < phases; ++p) phase_ways[static_cast<std::size_t>(p)] = counter.ways(phase(p));
  auto count_plain = [&](int p) {
    const int w = phase_ways[static_cast<std::size_t>(p)];
    c.wavefronts += w;
    c.ideal += w > 0;
    c.max_ways = std::max(c.max_ways, w);
    on_served(phase(p), lane_span(), w, false);
  };
  int hardware_nonempty = 0;
  auto hardware_plain = [&] {
    for (int p = 0; p < phases; ++p) {
      const int w = phase_ways[static_cast<std::size_t>(p)];
      c.passes += w;
      hardware_nonempty += w > 0;
      c.pipe_slots += std::max(1, w);
    }
  };

  // ldmatrix serves each 8x8 matrix (8 lanes' rows) in its own phase, and those never merge: an ldmatrix.x4 whose
  // lanes all name one row is 4 wavefronts where LDS.128's pairs make 2 (data/calibration/h200-ldmatrix-phases.tsv).
  const lds_merge merge = access.matrix_access ? lds_merge::none : rule.merge;
  if (merge == lds_merge::none) {
    for (int p = 0; p < phases; ++p) count_plain(p);
    hardware_plain();
  } else {  // lds_merge::sm90_pairs: phases (2g, 2g+1) form group g
    const int groups = phases / 2;
    std::array<int, max_wave_size> group_ways;  // written for g < groups before any read
    bool all_xor1 = true, all_xor2 = true;
    for (int g = 0; g < groups; ++g) {
      const lane_span a = phase(2 * g), b = phase(2 * g + 1);
      const bool xor1 = pairs_hold(access, a, 1) && pairs_hold(access, b, 1);
      const bool xor2 = pairs_hold(access, a, 2) && pairs_hold(access, b, 2);
      all_xor1 = all_xor1 && xor1;
      all_xor2 = all_xor2 && xor2;
      const int gw = (xor1 || xor2) ? counter.ways(a, b) : -1;
      group_ways[static_cast<std::size_t>(g)] = gw;
      if (gw == 1) {  // paired and conflict-free: the group counts as one wavefront
        c.wavefronts += 1;
        c.ideal += 1;
        c.max_ways = std::max(c.max_ways, 1);
        on_served(a, b, 1, true);
      } else {
        count_plain(2 * g);
        count_plain(2 * g + 1);
      }
    }
    if (all_xor1 || all_xor2) {  // the whole warp is paired: each group is one double-width phase
      c.packed = true;
      for (int g = 0; g < groups; ++g) {
        const int w = group_ways[static_cast<std::size_t>(g)];
        c.passes += w;
        hardware_nonempty += w > 0;
      }
      c.pipe_slots = 0;
      for (int g = 0; g < groups; ++g) c.pipe_slots += std::max(1, group_ways[static_cast<std::size_t>(g)]);
      if (rule.empty_phases == lds_empty_phases::fill_to_phases) c.pipe_slots = std::max(c.passes, groups);
    } else {
      hardware_plain();
    }
  }
  if (rule.empty_phases == lds_empty_phases::fill_to_phases && !c.packed) c.pipe_slots = std::max(c.passes, phases);
  c.excess = c.wavefronts - c.ideal;
  c.bank_conflicts = c.passes - hardware_nonempty;
  return c;
}

}  // namespace

lds_cost lds_instruction_cost(const arch_table& arch, const wave_access& access) {
  return price(arch, access, [](lane_span, lane_span, int, bool) {});
}

lds_detail lds_instruction_detail(const arch_table& arch, const wave_access& access) {
  lds_detail d;
  d.banks = arch.lds_rule(access.kind, access.width).banks;
  const address_t banks = static_cast<address_t>(d.banks);
  d.cost = price(arch, access, [&](lane_span first, lane_span second, int ways, bool merged) {
    lds_phase_detail ph;
    ph.ways = ways;
    ph.merged = merged;
    ph.words.resize(static_cast<std::size_t>(d.banks));
    for (lane_span lanes : {first, second})
      for (int lane : lanes) {
        const address_t a = access.address[static_cast<std::size_t>(lane)];
        if (a == no_address) continue;
        ph.lanes.push_back(lane);
        for (address_t word = a / 4; word <= (a + static_cast<address_t>(access.width) - 1) / 4; ++word)
          ph.words[static_cast<std::size_t>(word % banks)].push_back(word);
      }
    for (std::vector<std::uint64_t>& w : ph.words) {
      std::sort(w.begin(), w.end());
      w.erase(std::unique(w.begin(), w.end()), w.end());
    }
    d.phases.push_back(std::move(ph));
  });
  return d;
}

}  // namespace tilesim::sim
