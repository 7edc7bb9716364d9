// tilesim/gpu/rtc_props/props.test.cpp: the CPU side of tilesim-gpu props (issue 18), no GPU needed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_json.hpp"
#include "gpu/rtc_props/props_program.hpp"
#include "gpu/rtc_props/props_sim.hpp"
#include "gpu/rtc_props/shrink.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::json_error;
using util::parse_json;
using util::dump;

TEST_SUITE("props-gpu") {

// Law: the generators are valid by construction: every drawn case passes every rule (check_props_case).
// And they reach every layout family, element size, replication and pads (not a fixed catalogue).
TEST_CASE("generated cases are valid and cover the families") {
  std::set<int> layouts, bytes, warps;
  int replicated = 0, padded_tensor = 0, non_pow2 = 0, odd_xor = 0, odd_swizzle = 0;
  for (int i = 0; i < 400; ++i) {
    const props_case c = generate_case(2024, i).value();
    INFO("case ", i, ":\n", case_cpp(c));
    CHECK(check_props_case(c) == "");
    layouts.insert(static_cast<int>(c.layout));
    bytes.insert(c.element_bytes);
    warps.insert(static_cast<int>(c.threads / 32));
    replicated += reader_replication(c) > 1;
    padded_tensor += c.tensor_rows < c.grid * c.rows() || c.tensor_cols < c.cols();
    non_pow2 += (c.rows() & (c.rows() - 1)) != 0 || (c.cols() & (c.cols() - 1)) != 0;
    odd_xor += c.layout == props_layout::ck_xor && (c.rows() & (c.rows() - 1)) != 0;
    odd_swizzle += c.layout == props_layout::cute_swizzle && c.swizzle_b > 0 && (c.rows() & (c.rows() - 1)) != 0;
  }
  CHECK(layouts.size() == 5);
  CHECK(bytes == std::set<int>{2, 4, 8});
  CHECK(warps == std::set<int>{1, 2, 4, 8});
  CHECK(replicated > 10);
  CHECK(padded_tensor > 50);
  CHECK(non_pow2 > 20);
  CHECK(odd_xor > 3);      // CK's XOR preshuffle with MPerBlock 3 x 2^k, 5 x 2^k, ...
  CHECK(odd_swizzle > 3);  // a CuTe swizzle over such a tile
}

// Law: a case is its own description: the JSON round trip is exact, and equal cases have equal kernel text.
TEST_CASE("cases round-trip through JSON and name their kernels") {
  std::set<std::string> names;
  for (int i = 0; i < 100; ++i) {
    const props_case c = generate_case(7, i).value();
    CHECK(case_from_json(parse_json(dump(to_json(c)))) == c);
    const std::string name = kernel_name(c);
    const std::string src = kernel_source(c, name);
    CHECK(src.find(name + "(tilesim::gpu::kernel_args a)") != std::string::npos);
    CHECK(src.find("__launch_bounds__(" + std::to_string(c.threads) + ", " +
                   std::to_string(std::max<index_t>(1, 65536 / (c.threads * 128))) + ")") != std::string::npos);
    CHECK(src.find(std::string("props_copy<std::") + element_type(c.element_bytes) + ">") != std::string::npos);
    CHECK(kernel_source(c, name) == src);
    names.insert(name);
  }
  CHECK(names.size() >= 95);  // distinct cases, distinct kernels (repeats only where the generator repeated)
  json_value bad = to_json(generate_case(7, 3).value());
  bad.at("layout") = json_value("diagonal");
  CHECK_THROWS_AS(case_from_json(bad), json_error);
}

// Law (the copy law on the simulator): every generated program returns its input over the tensor, stores each
// element exactly once (replicated readers store from replica 0 only), and the simulator finds no race, bounds error or misalignment.
// TILESIM_PROPS_SIM_CASES and TILESIM_PROPS_SIM_SEED choose the cases (default 80 of seed 99): a GPU run's
// seed checked here first shows which verdicts are the simulator's own.
TEST_CASE("the simulator copies every generated case") {
  const char* n_env = std::getenv("TILESIM_PROPS_SIM_CASES");
  const char* seed_env = std::getenv("TILESIM_PROPS_SIM_SEED");
  const int n = n_env ? std::atoi(n_env) : 80;
  const std::uint64_t seed = seed_env ? std::strtoull(seed_env, nullptr, 10) : 99;
  for (int i = 0; i < n; ++i) {
    const props_case c = generate_case(seed, i).value();
    INFO("case ", i, ":\n", case_cpp(c));
    const case_inputs in = make_case_inputs(c, 1000 + static_cast<std::uint64_t>(i));
    const case_simulation s = simulate_case(c, in);
    CHECK(s.clean);
    CHECK(s.findings == "");
    const case_check k = check_case_output(c, in, s.buffers[1]);
    CHECK(k.mismatches == 0);
    CHECK(k.first_mismatch == "");
    CHECK(s.stores_per_element_ok);
    CHECK(s.stores_note == "");
    CHECK(s.predicted.lds_instructions_st > 0);
    CHECK(s.predicted.lds_instructions_ld > 0);
  }
}

// Law: the output check fails on a lost element (the poison stays) and names it.
TEST_CASE("the output check catches a lost element") {
  const props_case c = generate_case(5, 10).value();
  const case_inputs in = make_case_inputs(c, 3);
  byte_buffer out = in.buffers[0];
  CHECK(check_case_output(c, in, out).mismatches == 0);
  out[static_cast<std::size_t>(c.element_bytes)] ^= 1;
  const case_check k = check_case_output(c, in, out);
  CHECK(k.mismatches == 1);
  CHECK(k.first_mismatch.find("(row 0, col 1)") != std::string::npos);
}

// Law: the device-only fault (one swizzle mask bit / the XOR order on the reader's side) is caught within 100
// cases, and shrinking leaves a case a person can read. Here the "device" is the simulator running the faulty
// case; on a GPU, tilesim-gpu props --fault swizzle-bit runs the same search against the kernels.
TEST_CASE("the fault switch is caught and shrinks") {
  auto fails = [](const props_case& faulty) {
    props_case clean = faulty;
    clean.fault = 0;
    const case_inputs in = make_case_inputs(clean, 11);
    return check_case_output(clean, in, simulate_case(faulty, in).buffers[1]).mismatches != 0;
  };
  int found = -1;
  for (int i = 0; i < 100 && found < 0; ++i)
    if (fails(generate_case(31337, i, 1).value())) found = i;
  REQUIRE(found >= 0);
  const shrink_result<props_case> r = shrink<props_case>(generate_case(31337, found, 1), fails, 400);
  INFO("minimal case:\n", case_cpp(r.minimal));
  CHECK(fails(r.minimal));
  CHECK((r.minimal.layout == props_layout::cute_swizzle || r.minimal.layout == props_layout::ck_xor));
  CHECK(r.minimal.grid == 1);
  CHECK(r.minimal.threads == 32);
  CHECK(r.minimal.rows() * r.minimal.cols() <= 256);
}

// Law (issue 33's kinds occur when asked, and only then): with --kinds copy,stencil,reduce,loop every kind is drawn
// (in the first 20 cases too: the kind's draw does not scale with the case's index), each
// case valid and its own JSON description; a stencil reads 2..5 distinct offsets (the 5-point ones and diagonals
// both occur), a reduce's reader puts no warp bit on the columns, a loop moves 2..4 tiles with one buffer or two;
// without --kinds every case is a copy.
TEST_CASE("every kind occurs when asked, and copies only by default") {
  const std::vector<props_kind> all = {props_kind::copy, props_kind::stencil, props_kind::reduce, props_kind::loop};
  std::map<props_kind, int> seen, early;
  std::set<std::pair<index_t, int>> loops;
  std::set<int> points;
  int diagonal = 0, shuffled_rows = 0;
  for (int i = 0; i < 150; ++i) {
    const props_case c = generate_case(20261201, i, 0, 32, all).value();
    INFO("case ", i, ":\n", case_cpp(c));
    CHECK(check_props_case(c) == "");
    CHECK(case_from_json(parse_json(dump(to_json(c)))) == c);
    ++seen[c.kind];
    if (i < 20) ++early[c.kind];
    if (c.kind == props_kind::loop) loops.insert({c.loop_tiles, c.double_buffer});
    else CHECK(c.loop_tiles == 0);
    if (c.kind == props_kind::stencil) {
      points.insert(c.stencil_points);
      for (int k = 0; k < c.stencil_points; ++k) diagonal += c.stencil_dr[k] != 0 && c.stencil_dc[k] != 0;
    } else {
      CHECK(c.stencil_points == 0);
    }
    if (c.kind == props_kind::reduce) {
      if (c.reader.n_p == 2)
        for (int k = 0; k < c.reader.p_size[0]; ++k) CHECK(c.reader.p[0][k].major != 2);
      shuffled_rows += reduce_lane_mask(c.reader, c.wave) != 0;
    }
    CHECK(generate_case(20261201, i).value().kind == props_kind::copy);
  }
  CHECK(seen[props_kind::copy] > 20);
  CHECK(seen[props_kind::stencil] > 20);
  CHECK(seen[props_kind::reduce] > 25);
  CHECK(seen[props_kind::loop] > 25);
  CHECK(early.size() == 4);
  CHECK(loops.size() == 6);  // 2, 3, 4 tiles, each with one buffer and two
  CHECK(points == std::set<int>{2, 3, 4, 5});
  CHECK(diagonal > 5);
  CHECK(shuffled_rows > 10);  // most reduces need the butterfly (lanes along the columns)
  // One kind alone: every case of that kind.
  for (int i = 0; i < 20; ++i) CHECK(generate_case(9, i, 0, 32, {props_kind::stencil}).value().kind == props_kind::stencil);
}

// Law (old seeds, old cases): the default draw, an explicit --kinds copy and the draw before kinds existed are one:
// a copy's JSON has no stencil member, its kernel text no kind line (so its kernel name, recorded beside every
// case of the recordings, is unchanged; replay.test.cpp holds every recording to it).
TEST_CASE("the default kinds draw the cases they always did") {
  for (int i = 0; i < 60; ++i) {
    const props_case c = generate_case(18, i).value();
    CHECK(generate_case(18, i, 0, 32, {props_kind::copy}).value() == c);
    CHECK(c.kind == props_kind::copy);
    CHECK(to_json(c).get("stencil_offsets") == nullptr);
    CHECK(case_cpp(c).find("kind") == std::string::npos);
  }
  json_value old = json_value::object{};  // a recording before issue 33: no "kind"
  const json_value now = to_json(generate_case(18, 3).value());
  for (const auto& [key, value] : now.members())
    if (key != "kind") old.set(key, value);
  CHECK(case_from_json(old) == generate_case(18, 3).value());
  CHECK(parse_kinds("copy,stencil,reduce") == std::vector<props_kind>{props_kind::copy, props_kind::stencil, props_kind::reduce});
  CHECK_THROWS_WITH_AS(parse_kinds("copy,transpose"), "kind \"transpose\" is not one of copy, stencil, reduce, loop (in \"copy,transpose\")",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_kinds("stencil,stencil"), std::invalid_argument);
  CHECK_THROWS_AS(parse_kinds(""), std::invalid_argument);
}

// Law (each kind's own law on the simulator): for stencils and reductions over many seeds, the simulated output
// equals the host reference (reference_output: computed from the input alone, not by the program), bit for bit;
// each output element the kind defines is stored exactly once (a reduce's other elements never); the run is clean;
// a stencil issues at least its offsets times the copy's LDS load instructions, a reduce at least the copy's, a loop
// exactly its tiles times the copy's LDS loads and stores (each tile through LDS as the copy moves one). TILESIM_PROPS_KIND_CASES sets
// the cases per kind (default 40).
TEST_CASE("the simulator computes every stencil and reduce as the host reference does") {
  const char* n_env = std::getenv("TILESIM_PROPS_KIND_CASES");
  const int n = n_env ? std::atoi(n_env) : 40;
  for (props_kind kind : {props_kind::stencil, props_kind::reduce, props_kind::loop}) {
    int differs_from_input = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t seed = 5000 + static_cast<std::uint64_t>(i % 4);
      const props_case c = generate_case(seed, i, 0, 32, {kind}).value();
      INFO(kind_name(kind), " case ", i, " of seed ", seed, " (TILESIM_PROPS_SIM_SEED does not apply):\n", case_cpp(c));
      const case_inputs in = make_case_inputs(c, 77 + static_cast<std::uint64_t>(i));
      const case_simulation s = simulate_case(c, in);
      CHECK(s.clean);
      CHECK(s.findings == "");
      const case_check k = check_case_output(c, in, s.buffers[1]);
      CHECK(k.mismatches == 0);
      CHECK(k.first_mismatch == "");
      CHECK(s.stores_per_element_ok);
      CHECK(s.stores_note == "");
      differs_from_input += reference_output(c, in) != in.buffers[0];
      // Against the copy of the same tiles: a stencil reads the tile once per offset (scalar where it wraps the
      // columns), a reduce once with every replica; where the arch's compiler reuses repeated LDS loads (sm90:
      // sim/pricing/reused_loads.hpp) a stencil's later offsets may be served from earlier ones: at least once.
      props_case twin = c;
      twin.kind = props_kind::copy;
      twin.stencil_points = 0;
      for (int p = 0; p < props_max_stencil_points; ++p) twin.stencil_dr[p] = twin.stencil_dc[p] = 0;
      twin.loop_tiles = twin.double_buffer = 0;
      twin.tensor_rows = std::min(c.tensor_rows, c.grid * c.rows());  // a loop's tensor is longer
      REQUIRE(check_props_case(twin) == "");
      const counters copied = simulate_case(twin, make_case_inputs(twin, 1)).predicted;
      if (kind == props_kind::loop) {
        CHECK(s.predicted.lds_instructions_ld == c.loop_tiles * copied.lds_instructions_ld);
        CHECK(s.predicted.lds_instructions_st == c.loop_tiles * copied.lds_instructions_st);
        CHECK(s.lds_bytes == lds_bytes_of(c));
        differs_from_input += c.tensor_rows > c.grid * c.rows();  // its rows reach past one tile per workgroup
      } else {
        const bool reuses = props_arch(c).codegen.reuses_lds_loads;
        CHECK(s.predicted.lds_instructions_ld >=
              (kind == props_kind::stencil && !reuses ? c.stencil_points : 1) * copied.lds_instructions_ld);
        CHECK(s.predicted.lds_instructions_st == copied.lds_instructions_st);
      }
    }
    CHECK(differs_from_input > n / 2);  // the reference is the kind's, not the copy's (a loop's: past the first tiles)
  }
}

// Law: the kinds' output checks can fail: one element off in a stencil's output, or a reduce's row sum, is named.
TEST_CASE("the output check catches a wrong stencil sum and a wrong row sum") {
  for (props_kind kind : {props_kind::stencil, props_kind::reduce}) {
    const props_case c = generate_case(5, 10, 0, 32, {kind}).value();
    const case_inputs in = make_case_inputs(c, 3);
    byte_buffer out = reference_output(c, in);
    CHECK(check_case_output(c, in, out).mismatches == 0);
    const std::size_t at = kind == props_kind::reduce ? static_cast<std::size_t>(c.tensor_cols) : 1;  // (1, 0) / (0, 1)
    out[at * static_cast<std::size_t>(c.element_bytes)] ^= 1;
    const case_check k = check_case_output(c, in, out);
    CHECK(k.mismatches == 1);
    CHECK(k.first_mismatch.find(kind == props_kind::reduce ? "(row 1, col 0)" : "(row 0, col 1)") != std::string::npos);
  }
}

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
