// Laws of issue 36's minimisation (sim/synth/xor_minimise.hpp, tilesim synth's certificate), over small generated
// tiles whose writer and reader visit 16-byte (or 8-byte) chunks in random, strided or scattered lane orders, on
// sm90 (32 banks), gfx942 (32) and gfx950 (64):
//   - each family's branch-and-bound optimum (row-xor, xor, and gf2 where it can be enumerated) equals the brute
//     force over every member priced in the bank model (family_brute_force.hpp);
//   - its lower bound never exceeds an achieved value;
//   - synthesize() is never worse than any candidate the enumerated families priced, nor than the row-xor / xor
//     optimum, and its overall lower bound is below its answer;
//   - the gf2 and padded-xor optima realised as layouts (realise_layout.hpp) cost, built by their spec/ descriptors,
//     what the search claims, with weights; they are bijections onto their footprint keeping the vectors whole; the
//     weighted rank bound (xor_bound.hpp) never exceeds a weighted cost achieved by an XOR-linear layout.
// A counterexample prints as the `tilesim synth ... --verify` command (with the two pattern files) that reproduces it.
#include <doctest/doctest.h>

#include <bit>

#include "props/generators.hpp"
#include "sim/synth/family_brute_force.hpp"
#include "sim/synth/realise_layout.hpp"
#include "sim/synth/synth.hpp"

using namespace tilesim;
using namespace tilesim::props;
using namespace tilesim::synth;

namespace {

struct min_case {
  std::string arch;
  tile_shape tile;
  tile_side writer, reader;
  std::string orders;  // how the lanes were ordered, for the tag
  long long write_weight = 1, read_weight = 1;  // the objective's weights (gen_weighted_case)
  static std::string lines(const tile_side& s, const tile_shape& t) {
    std::string out;
    for (const tile_instruction& i : s.instructions) {
      out += i.label + " " + std::to_string(i.elems * t.elem_bytes) + (i.kind == sim::access_kind::load ? " load" : " store");
      for (const lane_coord& c : i.lanes)
        out += " " + std::to_string(c.active() ? (c.row * t.cols + c.col) * t.elem_bytes : 4294967295LL);
      out += "\\n";
    }
    return out;
  }
};
void showValue(const min_case& c, std::ostream& os) {
  os << "printf '" << min_case::lines(c.writer, c.tile) << "' > w.patterns; printf '" << min_case::lines(c.reader, c.tile)
     << "' > r.patterns; tilesim synth --arch " << c.arch << " --rows " << c.tile.rows << " --cols " << c.tile.cols
     << " --elem-bytes " << c.tile.elem_bytes << " --write-file w.patterns --read-file r.patterns --verify";
  if (c.write_weight != 1 || c.read_weight != 1) os << " --write-weight " << c.write_weight << " --read-weight " << c.read_weight;
}

// One side: `kind` order of the tile's chunks (a permutation, a stride, or scattered with repeats), wave lanes per
// instruction, some lanes off.
tile_side gen_side(const tile_shape& t, int wave, int elems, sim::access_kind k, const std::string& order) {
  tile_side s;
  s.name = k == sim::access_kind::store ? "write" : "read";
  const index_t per_row = t.cols / elems, n = t.rows * per_row;
  std::vector<index_t> seq(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) seq[static_cast<std::size_t>(i)] = i;
  if (order == "shuffled") {
    for (std::size_t i = seq.size() - 1; i > 0; --i) std::swap(seq[i], seq[*rc::gen::inRange<std::size_t>(0, i + 1)]);
  } else if (order == "strided") {
    const index_t stride = 2 * *rc::gen::inRange<index_t>(0, n / 2) + 1, off = *rc::gen::inRange<index_t>(0, n);
    const index_t shift = *rc::gen::inRange<index_t>(0, 4);  // a power-of-two stride part: transposing readers
    for (index_t i = 0; i < n; ++i) {
      const index_t j = ((i << shift) | (i >> (std::bit_width(static_cast<std::uint64_t>(n)) - 1 - shift))) % n;
      seq[static_cast<std::size_t>(i)] = (j * stride + off) % n;
    }
  } else {
    for (index_t& v : seq) v = *rc::gen::inRange<index_t>(0, n);
  }
  for (index_t i = 0; i < n; i += wave) {
    tile_instruction ins{s.name + std::to_string(i / wave), k, elems, {}};
    for (int l = 0; l < wave; ++l) {
      const index_t q = i + l;
      if (q >= n || *rc::gen::inRange(0, 10) == 0) ins.lanes.push_back({});
      else ins.lanes.push_back({seq[static_cast<std::size_t>(q)] / per_row, seq[static_cast<std::size_t>(q)] % per_row * elems});
    }
    s.instructions.push_back(std::move(ins));
  }
  return s;
}

rc::Gen<min_case> gen_min_case() {
  return rc::gen::exec([] {
    min_case c;
    c.arch = *gen_pick<std::string>({"sm90", "gfx942", "gfx950"});
    const sim::arch_table& a = sim::arch_named(c.arch);
    c.tile.elem_bytes = *gen_pick<int>({2, 4});
    const int vbytes = *gen_pick<int>({16, 16, 8});
    const int elems = vbytes / c.tile.elem_bytes;
    c.tile.rows = *gen_pick<index_t>({4, 8, 16});
    c.tile.cols = elems * *gen_pick<index_t>({2, 4, 8});
    const std::string wo = *gen_pick<std::string>({"shuffled", "strided", "scattered"});
    const std::string ro = *gen_pick<std::string>({"shuffled", "strided", "scattered"});
    c.orders = wo + "/" + ro;
    c.writer = gen_side(c.tile, a.wave_size, elems, sim::access_kind::store, wo);
    c.reader = gen_side(c.tile, a.wave_size, elems, sim::access_kind::load, ro);
    return c;
  });
}

// A case with the objective's weights 1..3 per side.
rc::Gen<min_case> gen_weighted_case() {
  return rc::gen::exec([] {
    min_case c = *gen_min_case();
    c.write_weight = *rc::gen::inRange(1, 4);
    c.read_weight = *rc::gen::inRange(1, 4);
    return c;
  });
}

// Weighted price of a layout through its spec/ descriptor, or why it is not a layout keeping the vectors.
struct realised_price {
  long long cost = -1;
  std::string broken;
};
realised_price price_realised(const min_case& c, const lds_layout& l) {
  const sim::arch_table& a = sim::arch_named(c.arch);
  const std::vector<index_t> off = descriptor_offsets(l);
  if (off != layout_offsets(l)) return {-1, l.name() + ": the spec/ descriptor differs from the formula"};
  if (auto e = check_bijection(l, off)) return {-1, *e};
  if (auto e = check_vectors(c.writer, l, off)) return {-1, *e};
  if (auto e = check_vectors(c.reader, l, off)) return {-1, *e};
  return {c.write_weight * price_side(a, c.tile, c.writer, off).wavefronts + c.read_weight * price_side(a, c.tile, c.reader, off).wavefronts,
          ""};
}

}  // namespace

TEST_SUITE("synth_min") {
  TEST_CASE("the realised gf2 and padded-xor optima cost what the search claims, are bijections onto their footprint and keep "
            "the vectors whole; the weighted rank bound never exceeds an achieved weighted cost") {
    const auto law = [] {
      const min_case c = *gen_weighted_case();
      const sim::arch_table& a = sim::arch_named(c.arch);
      const int vec = std::max(c.writer.max_elems(), c.reader.max_elems());
      const xor_minimum x = minimise_xor(a, c.tile, c.writer, c.reader, vec, {50'000'000, 60.0, c.write_weight, c.read_weight, 1 << 15});
      RC_PRE(x.applicable);
      RC_TAG(c.arch, x.gf2.best >= 0 ? "gf2 searched" : "gf2 not searched", x.padded_xor.searched ? "padded-xor priced" : "padded-xor not priced");
      long long achieved = -1;
      if (x.gf2.best >= 0) {
        const lds_layout l = layout_of_gf2(x, c.tile, x.gf2.columns);
        const realised_price p = price_realised(c, l);
        if (!p.broken.empty()) RC_FAIL("gf2: " + p.broken);
        if (p.cost != x.gf2.best) RC_FAIL("gf2: the search claims " + std::to_string(x.gf2.best) + ", " + l.name() + " costs " + std::to_string(p.cost));
        achieved = p.cost;
      }
      if (x.padded_xor.searched && x.padded_xor.best >= 0) {
        const lds_layout l = layout_of_padded_xor(x, c.tile, x.padded_xor);
        const realised_price p = price_realised(c, l);
        if (!p.broken.empty()) RC_FAIL("padded-xor: " + p.broken);
        if (p.cost != x.padded_xor.best)
          RC_FAIL("padded-xor: the search claims " + std::to_string(x.padded_xor.best) + ", " + l.name() + " costs " + std::to_string(p.cost));
      }
      // The weighted rank bound (xor_bound.hpp) against XOR-linear layouts actually priced: row-major and the gf2 optimum.
      const xor_analysis r = analyse_xor(a, c.tile, c.writer, c.reader, vec, 1, c.write_weight, c.read_weight);
      lds_layout rm;
      rm.rows = c.tile.rows;
      rm.cols = c.tile.cols;
      rm.elem_bytes = c.tile.elem_bytes;
      const realised_price row_major = price_realised(c, rm);
      if (r.applicable && r.lower_bound > row_major.cost)
        RC_FAIL("weighted rank bound " + std::to_string(r.lower_bound) + " above row-major's weighted " + std::to_string(row_major.cost));
      if (r.applicable && achieved >= 0 && r.lower_bound > achieved)
        RC_FAIL("weighted rank bound " + std::to_string(r.lower_bound) + " above the gf2 optimum's weighted " + std::to_string(achieved));
    };
    CHECK(rc::check("realised gf2 / padded-xor layout: priced == claimed, bijection onto its footprint, vectors whole; weighted rank bound <= achieved", law));
  }

  TEST_CASE("each family's branch-and-bound optimum equals the brute force over its members; bounds never exceed an achieved value") {
    const auto law = [] {
      const min_case c = *gen_min_case();
      synth_request r;
      r.arch = &sim::arch_named(c.arch);
      r.tile = c.tile;
      r.writer = c.writer;
      r.reader = c.reader;
      const int vec = std::max(r.writer.max_elems(), r.reader.max_elems());
      const xor_minimum x = minimise_xor(*r.arch, r.tile, r.writer, r.reader, vec, {50'000'000, 60.0, 1, 1, 0});  // padded-xor: xor_minimise.test.cpp
      RC_PRE(x.applicable);
      RC_TAG(c.arch, c.orders);
      int verified = 0;
      for (const family_optimum* o : {&x.row_xor, &x.graph, &x.gf2}) {
        if (o->best < 0) continue;
        const std::string name = xor_family_name(o->family);
        const brute_force_result b = brute_force_family(r, o->family, 1 << 15);
        if (!b.best) continue;  // too many members to enumerate here
        ++verified;
        if (!o->exhaustive) RC_FAIL(name + ": the search did not finish on a small tile");
        if (o->best != *b.best)
          RC_FAIL(name + ": branch-and-bound " + std::to_string(o->best) + ", brute force over " + std::to_string(b.members) +
                  " members " + std::to_string(*b.best));
        if (o->lower_bound > *b.best) RC_FAIL(name + ": lower bound " + std::to_string(o->lower_bound) + " above the optimum " + std::to_string(*b.best));
      }
      RC_TAG(std::to_string(verified) + " families brute-forced");
      if (x.gf2.best >= 0 && (x.gf2.best > x.graph.best || x.graph.best > x.row_xor.best))
        RC_FAIL("the optima are not ordered gf2 <= xor <= row-xor: " + std::to_string(x.gf2.best) + ", " +
                std::to_string(x.graph.best) + ", " + std::to_string(x.row_xor.best));
    };
    CHECK(rc::check("branch-and-bound optimum == brute force per family (row-xor, xor, gf2), lower bound <= optimum", law));
  }

  TEST_CASE("synthesize is never worse than any enumerated candidate nor the searched optima; its lower bound is below it") {
    const auto law = [] {
      const min_case c = *gen_min_case();
      synth_request r;
      r.arch = &sim::arch_named(c.arch);
      r.tile = c.tile;
      r.writer = c.writer;
      r.reader = c.reader;
      const synth_result s = synthesize(r);
      RC_TAG(c.arch, s.best_family);
      for (const lds_layout& l : candidate_layouts(r, s.xor_info)) {
        std::vector<index_t> off;
        try {
          off = layout_offsets(l);
        } catch (const std::exception&) {
          continue;
        }
        if (check_vectors(r.writer, l, off) || check_vectors(r.reader, l, off)) continue;
        const long long p = price_side(*r.arch, r.tile, r.writer, off).wavefronts + price_side(*r.arch, r.tile, r.reader, off).wavefronts;
        if (s.best.total() > p) RC_FAIL("answer " + std::to_string(s.best.total()) + " worse than candidate " + l.name() + " at " + std::to_string(p));
      }
      if (s.minimum.applicable)
        for (const family_optimum* o : {&s.minimum.row_xor, &s.minimum.graph})
          if (o->best >= 0 && s.best.total() > o->best)  // every optimum is spelled (as a gf2_linear map past 8 terms)
            RC_FAIL("answer " + std::to_string(s.best.total()) + " worse than the " + xor_family_name(o->family) + " optimum " + std::to_string(o->best));
      if (s.minimum.applicable && s.minimum.gf2.best >= 0 && s.best.total() > s.minimum.gf2.best)  // realised: never only a bound
        RC_FAIL("answer " + std::to_string(s.best.total()) + " worse than the gf2 optimum " + std::to_string(s.minimum.gf2.best));
      if (s.minimum.padded_xor.searched && s.minimum.padded_xor.best >= 0 && s.best.total() > s.minimum.padded_xor.best)
        RC_FAIL("answer " + std::to_string(s.best.total()) + " worse than the padded-xor optimum " + std::to_string(s.minimum.padded_xor.best));
      if (s.lower_bound > s.best.total()) RC_FAIL("lower bound " + std::to_string(s.lower_bound) + " above the answer " + std::to_string(s.best.total()));
      if (s.lower_bound < 0 || s.best.total() < s.ideal) RC_FAIL("answer below the ideal");
    };
    CHECK(rc::check("synthesize: answer <= every enumerated candidate and every family optimum (gf2, padded-xor realised); lower bound <= answer", law));
  }
}
