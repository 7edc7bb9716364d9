// Laws of sim/synth (tilesim synth): over random writer/reader pairs of the built-in patterns on every arch,
// the synthesized layout is never worse than row-major, reaches the ideal whenever the GF(2) analysis says an
// XOR-linear layout can, never beats the rank lower bound within the XOR-linear families, and its three
// spellings (spec/ descriptor, CK Tile mirror, CuTe swizzle) agree element by element with the formula.
// A counterexample prints as the `tilesim synth` command line that reproduces it.
#include <doctest/doctest.h>

#include "props/generators.hpp"
#include "sim/synth/synth.hpp"

using namespace tilesim;
using namespace tilesim::props;
using namespace tilesim::synth;

namespace {

// One synthesis problem, exactly as `tilesim synth` takes it.
struct synth_case {
  std::string arch, write, read;
  index_t rows = 0, cols = 0, vector = 0, threads = 0;
  int elem = 2;
  std::string command() const {
    return "tilesim synth --arch " + arch + " --rows " + std::to_string(rows) + " --cols " + std::to_string(cols) +
           " --elem-bytes " + std::to_string(elem) + " --vector " + std::to_string(vector) + " --threads " +
           std::to_string(threads) + " --write " + write + " --read " + read;
  }
};
void showValue(const synth_case& c, std::ostream& os) { os << c.command(); }

rc::Gen<synth_case> gen_case() {
  return rc::gen::exec([] {
    synth_case c;
    c.arch = *gen_pick<std::string>({"sm90", "gfx90a", "gfx942", "gfx950"});
    const int wave = c.arch == "sm90" ? 32 : 64;
    c.elem = *gen_pick<int>({1, 2, 4});
    const int vbytes = *gen_pick<int>({4, 8, 16, 16});
    c.vector = std::max(1, vbytes / c.elem);
    c.threads = wave * *gen_pick<int>({1, 2});
    c.cols = c.vector * (index_t{1} << *rc::gen::inRange(1, 5));
    c.rows = *gen_pick<index_t>({32, 64, 128});
    c.write = *gen_pick<std::string>({"warp-raked", "thread-raked", "block-raked", "down-rows"});
    c.read = *gen_pick<std::string>(
        {"down-rows", "warp-raked", wave == 32 ? "ldmatrix" : "mfma", wave == 32 ? "ldmatrix" : "mfma16"});
    return c;
  });
}

// The request of c, or nothing when a pattern does not fit the tile (the command would exit 2).
std::optional<synth_request> request_of(const synth_case& c) {
  try {
    synth_request r;
    r.arch = &sim::arch_named(c.arch);
    r.tile = {c.rows, c.cols, c.elem};
    r.writer = named_side(c.write, r.tile, c.threads, r.arch->wave_size, c.vector, sim::access_kind::store);
    r.reader = named_side(c.read, r.tile, c.threads, r.arch->wave_size, c.vector, sim::access_kind::load);
    if (check_side(r.writer, r.tile, r.arch->wave_size) || check_side(r.reader, r.tile, r.arch->wave_size)) return std::nullopt;
    return r;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// Whether f is XOR-linear (the rank bound and the feasibility proof speak for it): not the padded ones.
bool xor_linear(layout_family f) { return f != layout_family::padded && f != layout_family::padded_xor; }

// Scattered sides: each lane of a few instructions at a random vector of a small tile (non-affine phases,
// broadcasts, inactive lanes), as pattern files of the row-major tile.
struct scatter_case {
  std::string arch;
  tile_shape tile;
  tile_side writer, reader;
  // The pattern-file lines of one side: NAME WIDTH OP and one row-major byte offset per lane.
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
void showValue(const scatter_case& c, std::ostream& os) {
  os << "printf '" << scatter_case::lines(c.writer, c.tile) << "' > w.patterns; printf '"
     << scatter_case::lines(c.reader, c.tile) << "' > r.patterns; tilesim synth --arch " << c.arch << " --rows "
     << c.tile.rows << " --cols " << c.tile.cols << " --elem-bytes " << c.tile.elem_bytes
     << " --write-file w.patterns --read-file r.patterns";
}

rc::Gen<scatter_case> gen_scatter() {
  return rc::gen::exec([] {
    scatter_case c;
    c.arch = *gen_pick<std::string>({"sm90", "gfx942", "gfx950"});
    const sim::arch_table& a = sim::arch_named(c.arch);
    c.tile.elem_bytes = *gen_pick<int>({2, 4});
    c.tile.rows = *gen_pick<index_t>({8, 16, 32});
    c.tile.cols = *gen_pick<index_t>({16, 32, 64});
    const int elems = *gen_pick<int>({1, 16 / c.tile.elem_bytes});
    for (tile_side* s : {&c.writer, &c.reader}) {
      s->name = s == &c.writer ? "write" : "read";
      const int n = *rc::gen::inRange(1, 3);
      for (int k = 0; k < n; ++k) {
        tile_instruction i{s->name + std::to_string(k), s == &c.writer ? sim::access_kind::store : sim::access_kind::load,
                           elems, {}};
        for (int l = 0; l < a.wave_size; ++l) {
          if (*rc::gen::inRange(0, 8) == 0) {
            i.lanes.push_back({});
            continue;
          }
          const index_t row = *rc::gen::inRange<index_t>(0, c.tile.rows);
          const index_t col = elems * *rc::gen::inRange<index_t>(0, c.tile.cols / elems);
          i.lanes.push_back({row, col});
        }
        s->instructions.push_back(std::move(i));
      }
    }
    return c;
  });
}

}  // namespace

TEST_SUITE("synth") {
  TEST_CASE("on scattered sides the rank bound holds, an exhaustive 'none' admits no conflict-free XOR layout, and a witness reaches the ideal") {
    const auto law = [] {
      const scatter_case c = *gen_scatter();
      synth_request r{&sim::arch_named(c.arch), c.tile, c.writer, c.reader, {}, 2'000'000};
      r.min_nodes = 500;  // these laws are about the enumerated candidates and the GF(2) analysis; props-synth-min holds the search
      const synth_result s = synthesize(r);
      const xor_analysis& x = s.xor_info;
      RC_TAG(x.feasible ? "feasible" : x.exhaustive ? "proved infeasible" : "unknown");
      if (s.best.total() > s.row_major.total()) RC_FAIL("best above row-major");
      if (x.lower_bound > s.row_major.total()) RC_FAIL("rank bound " + std::to_string(x.lower_bound) + " above row-major");
      if (xor_linear(s.best.layout.family) && x.lower_bound > s.best.total())
        RC_FAIL("rank bound " + std::to_string(x.lower_bound) + " above " + s.best.layout.name());
      if (x.feasible && x.graph_form && s.best.total() != s.ideal) RC_FAIL("a witness exists but the best misses the ideal");
      if (!x.feasible && x.exhaustive && xor_linear(s.best.layout.family) && s.best.total() == s.ideal)
        RC_FAIL("proved infeasible, yet " + s.best.layout.name() + " reaches the ideal");
    };
    CHECK(rc::check("scattered writer/reader: bound <= XOR-linear wavefronts; infeasible => no XOR layout at the ideal; "
                    "feasible => best == ideal", law));
  }

  TEST_CASE("synthesis is never worse than row-major and reaches the ideal whenever the GF(2) analysis says it can") {
    const auto law = [] {
      const synth_case c = *gen_case();
      const auto r = request_of(c);
      RC_PRE(r.has_value());
      const synth_result s = synthesize(*r);
      RC_TAG(s.xor_info.feasible ? "xor-feasible" : "xor-infeasible", s.best.layout.family == layout_family::row_major ? "row-major" : "swizzled");
      if (s.best.total() > s.row_major.total()) RC_FAIL("best " + std::to_string(s.best.total()) + " > row-major " + std::to_string(s.row_major.total()));
      if (s.best.total() < s.ideal) RC_FAIL("best below the ideal");
      if (s.xor_info.feasible && s.xor_info.graph_form && s.best.total() != s.ideal)
        RC_FAIL("the analysis found a conflict-free XOR-linear layout but the best costs " + std::to_string(s.best.total()) +
                " against the ideal " + std::to_string(s.ideal));
      if (!s.xor_info.feasible && s.xor_info.exhaustive && xor_linear(s.best.layout.family) && s.best.total() == s.ideal)
        RC_FAIL("proved infeasible, yet " + s.best.layout.name() + " reaches the ideal");
      if (s.xor_info.applicable && s.xor_info.lower_bound > s.row_major.total())
        RC_FAIL("rank bound " + std::to_string(s.xor_info.lower_bound) + " above row-major's " + std::to_string(s.row_major.total()));
      if (s.xor_info.applicable && xor_linear(s.best.layout.family) && s.xor_info.lower_bound > s.best.total())
        RC_FAIL("rank bound " + std::to_string(s.xor_info.lower_bound) + " above " + s.best.layout.name());
    };
    CHECK(rc::check("synthesize(writer, reader): row-major >= best >= ideal; best == ideal when an XOR-linear layout is "
                    "conflict-free; the rank bound <= every XOR-linear layout's wavefronts", law));
  }

  TEST_CASE("every candidate's three spellings agree element by element, and the XOR families are bijections") {
    const auto law = [] {
      const synth_case c = *gen_case();
      const auto r = request_of(c);
      RC_PRE(r.has_value());
      const xor_analysis x = analyse_xor(*r->arch, r->tile, r->writer, r->reader,
                                         std::max(r->writer.max_elems(), r->reader.max_elems()));
      const std::vector<lds_layout> all = candidate_layouts(*r, x);
      const lds_layout& l = all[*rc::gen::inRange<std::size_t>(0, all.size())];
      RC_TAG(family_name(l.family));
      std::vector<index_t> direct;
      try {
        direct = layout_offsets(l);
      } catch (const std::invalid_argument&) {
        RC_DISCARD("the family rejects the tile");
      }
      if (descriptor_offsets(l) != direct) RC_FAIL(l.name() + ": the spec/ descriptor differs from the formula");
      if (ck_mirror_offsets(l) != direct) RC_FAIL(l.name() + ": the CK Tile mirror differs from the formula");
      if (auto cu = cute_offsets(l); cu && *cu != direct) RC_FAIL(l.name() + ": CuTe's swizzle differs from the formula");
      if (auto e = check_bijection(l, direct)) RC_FAIL(*e);
    };
    CHECK(rc::check("layout_offsets == descriptor_offsets == ck_mirror_offsets (== cute_offsets), and a bijection", law));
  }
}
