// tilesim/gpu/rtc_props/props.test.cpp: the CPU side of tilesim-gpu props (issue 18), no GPU needed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <set>

#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_json.hpp"
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

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
