// tilesim/gpu/rtc_props/amd_sample.test.cpp: the same generated program source compiled for AMD (hipcc, gfx90a and
// gfx940), held to 0 bytes of scratch and to the simulator's LDS instructions.
#include <doctest/doctest.h>

#include <cstdlib>

#include "gpu/rtc_props/amd_check.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_sim.hpp"
#include "gpu/rtc_props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

TEST_SUITE("props-gpu-amd") {

// Law: a generated wave-64 program compiles for gfx90a and gfx940 from the same kernel text NVRTC compiles, with
// 0 bytes of scratch, and its kernel issues exactly the LDS instructions the simulator records per wave (same
// kinds and widths, the same number of each: the windows are unrolled, nothing split, merged or duplicated).
// TILESIM_PROPS_AMD_CASES sets the sample (default 3; about 3 s per case and arch on one core).
TEST_CASE("a sample of generated wave-64 kernels compiles for AMD with 0 scratch and the simulator's LDS widths") {
  const char* env = std::getenv("TILESIM_PROPS_AMD_CASES");
  const int n = env ? std::atoi(env) : 3;
  for (int i = 0; i < n; ++i) {
    const props_case c = generate_case(6464, 30 + 11 * i, 0, 64).value();
    const std::string name = kernel_name(c);
    const case_simulation s = simulate_case(c, make_case_inputs(c, 1));
    REQUIRE(s.lds_uniform);
    for (const char* arch : {"gfx90a", "gfx940"}) {
      rtc_options o;
      o.root = find_root(".");
      o.backend = rtc_backend::hipcc;
      o.arch = arch;
      const compiled_kernel k = compile_kernel(kernel_source(c, name), name, o);
      INFO("case ", i, " on ", arch, ":\n", case_cpp(c), "\nlog:\n", k.log.substr(0, 3000));
      REQUIRE(k.ok);
      CHECK(k.stack_bytes == 0);
      const amd_lds_use u = amd_lds_instructions(k.cubin, name);
      REQUIRE(u.found);
      CHECK(u.problems.empty());
      CHECK(u.counts == s.lds_per_wave);
    }
  }
}

// Law: the reader counts widths, pairs and kinds as stated (amd_check.hpp), and rejects a split pair.
TEST_CASE("the AMD LDS reader") {
  const std::string text =
      "\nk:\n  ds_write_b128 v1, v[2:5]\n  ds_read2_b32 v[6:7], v1 offset1:1\n  ds_read_u16 v8, v1\n"
      "  ds_read2_b64 v[8:11], v1 offset0:0 offset1:4\n  ds_bpermute_b32 v1, v2, v3\n.Lfunc_end0:\n  ds_read_b32 v1, v1\n";
  const amd_lds_use u = amd_lds_instructions(text, "k");
  REQUIRE(u.found);
  CHECK(u.counts == std::map<std::pair<int, int>, int>{{{1, 16}, 1}, {{0, 8}, 1}, {{0, 2}, 1}});
  CHECK(u.problems.size() == 1);
  CHECK_FALSE(amd_lds_instructions(text, "other").found);
}

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
