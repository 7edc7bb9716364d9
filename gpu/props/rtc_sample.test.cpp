// tilesim/gpu/props/rtc_sample.test.cpp: NVRTC compiles a sample of generated cases, every kernel 0 bytes of stack.
#include <doctest/doctest.h>

#include <cstdlib>

#include "gpu/props/kernel_source.hpp"
#include "gpu/props/props_generators.hpp"
#include "gpu/props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

TEST_SUITE("props-gpu-rtc") {

// Law (zero-overhead device code, issue 18's CI half): every generated program compiles at run time with the
// same compiler tilesim-gpu props uses, and ptxas reports 0 bytes of stack and no spills for its kernel.
// TILESIM_PROPS_RTC_CASES sets the sample size (default 6: about 2 s each on 2 cores).
TEST_CASE("a sample of generated kernels compiles with NVRTC to 0 bytes of stack") {
  const char* env = std::getenv("TILESIM_PROPS_RTC_CASES");
  const int n = env ? std::atoi(env) : 6;
  rtc_options o;
  o.root = find_root(".");
  for (int i = 0; i < n; ++i) {
    const props_case c = generate_case(4242, 20 + 7 * i).value();
    const std::string name = kernel_name(c);
    const compiled_kernel k = compile_kernel(kernel_source(c, name), name, o);
    INFO("case ", i, ":\n", case_cpp(c), "\nlog:\n", k.log);
    REQUIRE(k.ok);
    CHECK(k.stack_bytes == 0);
    CHECK(k.spill_store_bytes == 0);
    CHECK(k.spill_load_bytes == 0);
    CHECK(k.registers > 0);
    CHECK(k.cubin.size() > 1000);
  }
}

// Law: ptxas -v lines give the kernel's stack frame, spills and registers.
TEST_CASE("ptxas info is parsed per kernel") {
  const std::string log =
      "ptxas info    : Compiling entry function 'k1' for 'sm_90'\nptxas info    : Function properties for k1\n"
      "ptxas         .     16 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 30 registers, used 1 barriers\n";
  compiled_kernel k;
  REQUIRE(parse_ptxas_info(log, "k1", k));
  CHECK(k.stack_bytes == 16);
  CHECK(k.spill_store_bytes == 4);
  CHECK(k.spill_load_bytes == 8);
  CHECK(k.registers == 30);
  CHECK_FALSE(parse_ptxas_info(log, "k2", k));
}

// Law: a bad source is a failed compile with the compiler's message, not a crash.
TEST_CASE("a broken kernel fails with its log") {
  rtc_options o;
  o.root = find_root(".");
  const compiled_kernel k = compile_kernel("extern \"C\" __global__ void broken() { undefined_name(); }", "broken", o);
  CHECK_FALSE(k.ok);
  CHECK(k.log.find("undefined_name") != std::string::npos);
}

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
