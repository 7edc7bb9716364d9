// tilesim/gpu/rtc_props/rtc_sample.test.cpp: NVRTC compiles a sample of generated cases, every kernel 0 bytes of stack.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <thread>

#include "gpu/rtc_props/compile_batch.hpp"
#include "gpu/rtc_props/cubin_info.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/rtc_compiler.hpp"

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

// Law (zero-overhead device code for every kind): stencils (a wrapped view per offset), reductions (a shuffle
// butterfly, scalar stores) and loops (2..4 tiles, one or two LDS buffers) compile with NVRTC as the copies do: 0 bytes of stack, no spills. Two of each kind (of
// seed 4242, elements of different sizes where the draw gives them); TILESIM_PROPS_RTC_KIND_CASES sets how many.
TEST_CASE("a sample of stencil, reduce and loop kernels compiles with NVRTC to 0 bytes of stack") {
  const char* env = std::getenv("TILESIM_PROPS_RTC_KIND_CASES");
  const int n = env ? std::atoi(env) : 2;
  rtc_options o;
  o.root = find_root(".");
  for (props_kind kind : {props_kind::stencil, props_kind::reduce, props_kind::loop})
    for (int i = 0; i < n; ++i) {
      const props_case c = generate_case(4242, 30 + 11 * i, 0, 32, {kind}).value();
      const std::string name = kernel_name(c);
      const std::string source = kernel_source(c, name);
      CHECK(source.find(std::string("c.kind = props_kind::") + kind_name(kind)) != std::string::npos);
      const compiled_kernel k = compile_kernel(source, name, o);
      INFO(kind_name(kind), " case ", i, ":\n", case_cpp(c), "\nlog:\n", k.log);
      REQUIRE(k.ok);
      CHECK(k.stack_bytes == 0);
      CHECK(k.spill_store_bytes == 0);
      CHECK(k.spill_load_bytes == 0);
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

// Law: the CUBIN records what ptxas -v reports: for generated kernels and for one with a real stack frame (a local
// array whose address a call takes), cubin_frame's registers and frame size equal the log's; an empty log (as NVRTC gave
// for a few kernels on the H100) still yields them, from the cubin, with spills 0 when the frame is 0.
TEST_CASE("the cubin's attributes give ptxas's registers and stack frame") {
  rtc_options o;
  o.root = find_root(".");
  std::vector<std::pair<std::string, std::string>> kernels;  // name, source
  for (int i = 0; i < 2; ++i) {
    const props_case c = generate_case(18, i).value();
    kernels.emplace_back(kernel_name(c), kernel_source(c, kernel_name(c)));
  }
  kernels.emplace_back("framed", "__device__ __noinline__ int pick(int* a, int i) { return a[i]; }\n"
                                 "extern \"C\" __global__ void framed(int* p, int i) {\n"
                                 "  int a[16];\n  for (int k = 0; k < 16; ++k) a[k] = p[k];\n  p[0] = pick(a, i & 15);\n}\n");
  std::string framed_cubin;
  for (const auto& [name, source] : kernels) {
    const compiled_kernel k = compile_kernel(source, name, o);
    INFO(name, " log:\n", k.log);
    REQUIRE(k.ok);
    REQUIRE(k.stack_bytes >= 0);  // from the log
    const std::optional<cubin_frame_info> f = cubin_frame(k.cubin, name);
    REQUIRE(f.has_value());
    CHECK(f->registers == k.registers);
    CHECK(f->frame_bytes == k.stack_bytes);
    CHECK(f->min_stack_bytes >= f->frame_bytes);
    if (name == "framed") {
      CHECK(k.stack_bytes == 64);  // the 16 ints a call takes the address of
      framed_cubin = k.cubin;
    }
    // The same module as a cache entry whose log is empty, as NVRTC returned it on the H100.
    rtc_options cache = o;
    cache.cache = "build/tilesim-cubin-info-test/" + name;
    std::filesystem::remove_all(cache.cache);
    std::filesystem::create_directories(cache.cache);
    REQUIRE(compile_kernel(source, name, cache).ok);
    for (const auto& entry : std::filesystem::directory_iterator(cache.cache))
      if (entry.path().extension() == ".log") std::filesystem::resize_file(entry.path(), 0);
    compiled_kernel reread;
    REQUIRE(cached_kernel(source, name, cache, reread));
    CHECK(reread.stack_bytes == k.stack_bytes);
    CHECK(reread.registers == k.registers);
    CHECK(reread.spill_store_bytes == (k.stack_bytes == 0 ? 0 : -1));
  }
  CHECK_FALSE(cubin_frame(std::string(100, 'x'), "framed").has_value());  // not an ELF
  CHECK_FALSE(cubin_frame(framed_cubin, "absent").has_value());
  CHECK_FALSE(cubin_frame(framed_cubin.substr(0, framed_cubin.size() / 2), "framed").has_value());  // cut short
}

// Law: a bad source is a failed compile with the compiler's message, not a crash.
TEST_CASE("a broken kernel fails with its log") {
  rtc_options o;
  o.root = find_root(".");
  const compiled_kernel k = compile_kernel("extern \"C\" __global__ void broken() { undefined_name(); }", "broken", o);
  CHECK_FALSE(k.ok);
  CHECK(k.log.find("undefined_name") != std::string::npos);
}

// Law (compile throughput): the batch's worker processes compile exactly what one process compiles (same cubin
// bytes, same ptxas report), report each case once in increasing order, and the work really runs in child
// processes: with 2 jobs and 3 cases each of the 2 workers is handed a case at once, so the results name exactly
// 2 compiling processes, neither of them this one (the 1-job batch names only this one); the cores default is
// sane. How fast the pool is (CPU time, wall time) depends on the machine's load: that belongs in a benchmark
// (tilesim-props-compile, docs/gpu.md's table), not in a law that must hold on a loaded 2-core machine.
TEST_CASE("worker processes compile what one process compiles") {
  rtc_options o;
  o.root = find_root(".");
  std::vector<props_case> cases;
  for (int i = 0; i < 3; ++i) cases.push_back(generate_case(4242, 100 + 3 * i).value());
  const std::vector<compiled_kernel> alone = compile_batch(cases, o, 1, nullptr, {"props-pass"});
  std::size_t last = 0;
  const std::vector<compiled_kernel> pooled = compile_batch(cases, o, 2, [&](std::size_t done, std::size_t total) {
    CHECK(done == last + 1);
    CHECK(total == 3);
    last = done;
  }, {"props-pass"});
  CHECK(last == 3);
  const long long self = static_cast<long long>(getpid());
  std::set<long long> workers;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CHECK(alone[i].compiled_by_pid == self);
    CHECK(pooled[i].compiled_by_pid > 0);
    CHECK(pooled[i].compiled_by_pid != self);
    workers.insert(pooled[i].compiled_by_pid);
  }
  CHECK(workers.size() == 2);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case ", i, " log:\n", pooled[i].log);
    REQUIRE(alone[i].ok);
    REQUIRE(pooled[i].ok);
    CHECK_FALSE(pooled[i].cached);
    CHECK(pooled[i].seconds > 0);
    CHECK(pooled[i].cubin == alone[i].cubin);
    CHECK(pooled[i].stack_bytes == alone[i].stack_bytes);
    CHECK(pooled[i].registers == alone[i].registers);
  }
  CHECK(default_compile_jobs() >= 1);
  CHECK(default_compile_jobs() <= static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
