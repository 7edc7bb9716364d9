// The registration of the catalogue's programs (program_adapter.hpp, examples/adapters/adapters.cpp): every program
// kind has one adapter, found by kind and by name; the catalogue's points all belong to registered programs and
// come program by program in the list's order, then the examples'; an adapter's host LDS bytes are the
// simulator's; a binary without the kernels refuses a device run with a device_error, never a crash.
#include "gpu/crosscheck/program_adapter.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "gpu/runtime/device_error.hpp"

namespace tilesim::gpu {

TEST_CASE("program adapters: each program kind is registered once, and found again by its name") {
  std::set<std::string> names, kernels;
  // program_kind's enumerators are 0 .. mma_gemm_f16 (the last).
  for (int k = 0; k <= static_cast<int>(program_kind::mma_gemm_f16); ++k) {
    const program_kind kind = static_cast<program_kind>(k);
    CAPTURE(k);
    int registered = 0;
    for (const program_adapter* a : registered_programs()) registered += a->kind == kind;
    CHECK(registered == 1);
    const program_adapter& a = adapter_of(kind);
    CHECK(a.kind == kind);
    CHECK(adapter_named(a.name) == &a);
    names.insert(a.name);
    kernels.insert(a.kernel);
  }
  CHECK(names.size() == registered_programs().size());
  CHECK(kernels.size() == registered_programs().size());
  CHECK(adapter_named("no_such_program") == nullptr);
}

TEST_CASE("program adapters: the catalogue is each program's built-in points in registration order, then the examples'") {
  const std::vector<crosscheck_point> all = catalogue();
  std::size_t at = 0;
  for (const program_adapter* a : registered_programs())
    for (const crosscheck_point& p : a->builtin_points()) {
      REQUIRE(at < all.size());
      CHECK(all[at].name == p.name);
      CHECK(all[at].program == a->kind);
      CHECK(all[at].example.empty());
      ++at;
    }
  CHECK(at > 0);
  for (; at < all.size(); ++at) {
    CAPTURE(all[at].name);
    CHECK(!all[at].example.empty());
    CHECK(all[at].name.rfind("example " + all[at].example + ": ", 0) == 0);
  }
}

TEST_CASE("program adapters: where an adapter gives LDS bytes without the simulator, they are the simulator's") {
  int compared = 0;
  for (const crosscheck_point& p : catalogue()) {
    const program_adapter& a = adapter_of(p.program);
    if (!a.lds_bytes) continue;
    CAPTURE(p.name);
    CHECK(a.lds_bytes(p) == simulate(p, make_inputs(p, 3)).lds_bytes);
    ++compared;
  }
  CHECK(compared > 0);
}

TEST_CASE("program adapters: without the GPU kernels linked, a device run is a device_error naming that") {
  const crosscheck_point p = catalogue().front();
  const point_inputs in = make_inputs(p, 1);
  CHECK_THROWS_WITH_AS(adapter_of(p.program).run_on_device(p, {p.grid, p.block, 0, false}, in.buffers),
                       doctest::Contains("built without the GPU kernels"), device_error);
}

}  // namespace tilesim::gpu
