// Laws and the worked example of program_timing.hpp.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/timing/program_timing.hpp"

using namespace tilesim::sim;

namespace {
timed_step lds(double occupancy, double latency) { return {false, pipe_id::lds, occupancy, latency}; }
timed_step global(double occupancy, double latency) { return {false, pipe_id::global, occupancy, latency}; }
timed_step barrier() { return {true, pipe_id::lds, 0, 0}; }
timed_step load(pipe_id p, double occupancy, double latency) { return {false, p, occupancy, latency, true, false}; }
timed_step store(pipe_id p, double occupancy, double latency) { return {false, p, occupancy, latency, false, true}; }
}  // namespace

TEST_CASE("worked example: two waves share the LDS pipe; the second waits 4 cycles and completes at 18") {
  const auto r = time_workgroup({{lds(4, 10)}, {lds(4, 10)}}, {1, 0});
  CHECK(r.waves[0][0].complete == 14);
  CHECK(r.waves[1][0].start == 4);
  CHECK(r.total_cycles == 18);
  CHECK(r.pipe_busy[0] == 8);
}

TEST_CASE("32 waves repeating one LDS instruction N times: cycles per warp access tend to its occupancy") {
  for (double occupancy : {1.731, 2.027, 4.019, 31.916}) {
    std::vector<std::vector<timed_step>> waves(32, std::vector<timed_step>(256, lds(occupancy, 30)));
    const auto r = time_workgroup(waves, {1, 0});
    const double per_access = r.total_cycles / (32.0 * 256.0);
    CHECK(per_access >= occupancy);
    CHECK(per_access <= occupancy * 1.01);
  }
}

TEST_CASE("a pipe serves one instruction at a time: total >= the busy time of each pipe") {
  const auto r = time_workgroup({{lds(3, 0), global(5, 100), lds(3, 0)}, {global(5, 100), lds(2, 0)}}, {1, 0});
  CHECK(r.pipe_busy[0] == 8);
  CHECK(r.pipe_busy[1] == 10);
  CHECK(r.total_cycles >= 10);
  CHECK(r.waves[1][0].start == 0);  // wave 1 issues its global load at 0, before wave 0 reaches its own
  CHECK(r.waves[0][1].start == 5);  // which waits for the pipe
}

TEST_CASE("a barrier releases every wave only after all arrived and all their earlier instructions completed") {
  // Wave 0: a slow global load (completes at 0 + 8 + 500 = 508), then a barrier; wave 1 arrives at once.
  const auto r = time_workgroup({{global(8, 500), barrier(), lds(1, 0)}, {barrier(), lds(1, 0)}}, {1, 20});
  CHECK(r.waves[0][1].issue == 508);
  CHECK(r.waves[1][0].issue == 0);
  CHECK(r.waves[0][1].start == 528);
  CHECK(r.waves[1][0].start == 528);
  CHECK(r.waves[1][1].issue >= 528);
  CHECK(r.waves[0][2].issue >= 528);
}

TEST_CASE("waves that reach different numbers of barriers are rejected, naming the wave") {
  std::string message;
  try {
    (void)time_workgroup({{barrier()}, {}}, {1, 0});
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  CHECK(message == "time_workgroup: wave 1 reaches 0 barriers but wave 0 reaches 1");
}

TEST_CASE("a wave issues at most one instruction per issue_cycles") {
  const auto r = time_workgroup({{lds(1, 0), lds(1, 0), lds(1, 0)}}, {4, 0});
  CHECK(r.waves[0][1].issue == 4);
  CHECK(r.waves[0][2].issue == 8);
}

TEST_CASE("a store waits for the wave's earlier loads to complete; a load does not") {
  // LDS load (1 + 30 = completes 31), then a global store: issues at 31, not at 1.
  const auto r = time_workgroup({{load(pipe_id::lds, 1, 30), store(pipe_id::global, 2, 100), load(pipe_id::lds, 1, 30)}}, {1, 0});
  CHECK(r.waves[0][1].issue == 31);
  CHECK(r.waves[0][2].issue == 32);  // the next load only waits for the issue slot
}
