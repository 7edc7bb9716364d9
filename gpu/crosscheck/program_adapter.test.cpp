// The registration of the catalogue's programs (program_adapter.hpp, examples/adapters/adapters.cpp): every
// program is registered once under its own name and kernel, and found again by its name; the catalogue's points
// all name registered programs, hold their program's parameter type and come program by program in the list's
// order, then the examples'; a point's parameters read as another type are a logic_error naming both, never a
// misread; a program's loop count is set and read back; an adapter's host LDS bytes are the simulator's; a
// binary without the kernels refuses a device run with a device_error, never a crash.
#include "gpu/crosscheck/program_adapter.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "gpu/runtime/device_error.hpp"
#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::gpu {

TEST_CASE("program adapters: each program is registered once, under a name and a kernel of its own, found again by its name") {
  std::set<std::string> names, kernels;
  for (const program_adapter* a : registered_programs()) {
    CAPTURE(a->name);
    CHECK(adapter_named(a->name) == a);
    names.insert(a->name);
    kernels.insert(a->kernel);
    CHECK((a->iterations == nullptr) == (a->with_iterations == nullptr));  // a loop count is read and set, or neither
  }
  CHECK(names.size() == registered_programs().size());
  CHECK(kernels.size() == registered_programs().size());
  CHECK(adapter_named("no_such_program") == nullptr);
  crosscheck_point p;
  p.name = "a point of no program";
  p.program = "no_such_program";
  CHECK_THROWS_WITH_AS(p.adapter(), doctest::Contains("\"a point of no program\" names program \"no_such_program\""),
                       std::logic_error);
}

TEST_CASE("program adapters: every catalogue point names a registered program, whose functions read its parameters") {
  // The adapter reads the point's parameters back as its own type; a point holding another type would throw here.
  for (const crosscheck_point& p : catalogue()) {
    CAPTURE(p.name);
    REQUIRE(adapter_named(p.program) != nullptr);
    CHECK(&p.adapter() == adapter_named(p.program));
    CHECK(!p.params.empty());
    CHECK_NOTHROW(to_json(p));
    CHECK_NOTHROW(p.adapter().has_compiled_kernel(p));
  }
}

TEST_CASE("point parameters: read back as the type held; as another type a logic_error naming both types") {
  programs::copy_params c{};
  c.rows = 64;
  c.cols = 32;
  point_params q = c;
  CHECK(q.as<programs::copy_params>().rows == 64);
  q.as<programs::copy_params>().cols = 16;
  CHECK(q.as<programs::copy_params>().cols == 16);
  const point_params copy = q;  // a copy is an independent value
  q.as<programs::copy_params>().cols = 8;
  CHECK(copy.as<programs::copy_params>().cols == 16);
  CHECK_THROWS_WITH_AS(copy.as<programs::gemm_params>(),
                       doctest::Contains("hold a tilesim::programs::copy_params, read as a tilesim::programs::gemm_params"),
                       std::logic_error);
  CHECK(point_params().empty());
  CHECK_THROWS_WITH_AS(point_params().as<programs::copy_params>(), doctest::Contains("empty"), std::logic_error);
}

TEST_CASE("program adapters: a program's run-time loop count is set by with_iterations, read back, and named") {
  int programs_with_a_loop = 0;
  for (const program_adapter* a : registered_programs()) {
    if (!a->with_iterations) continue;
    ++programs_with_a_loop;
    for (const crosscheck_point& p : a->builtin_points()) {
      CAPTURE(p.name);
      for (long long n : {0LL, 5LL, 1024LL}) {
        const crosscheck_point q = a->with_iterations(p, n);
        CHECK(a->iterations(q) == n);
        CHECK(q.name.size() >= std::to_string(n).size() + 2);
        CHECK(q.name.substr(q.name.size() - std::to_string(n).size() - 2) == " x" + std::to_string(n));
        CHECK(q.name.substr(0, q.name.rfind(" x")) == p.name.substr(0, p.name.rfind(" x")));  // only the count renamed
      }
    }
  }
  CHECK(programs_with_a_loop == 1);  // the LDS sweep
}

TEST_CASE("program adapters: the catalogue is each program's built-in points in registration order, then the examples'") {
  const std::vector<crosscheck_point> all = catalogue();
  std::size_t at = 0;
  for (const program_adapter* a : registered_programs())
    for (const crosscheck_point& p : a->builtin_points()) {
      REQUIRE(at < all.size());
      CHECK(all[at].name == p.name);
      CHECK(all[at].program == a->name);
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
    const program_adapter& a = p.adapter();
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
  CHECK_THROWS_WITH_AS(p.adapter().run_on_device(p, {p.grid, p.block, 0, false}, in.buffers),
                       doctest::Contains("built without the GPU kernels"), device_error);
}

}  // namespace tilesim::gpu
