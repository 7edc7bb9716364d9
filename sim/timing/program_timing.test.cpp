// Laws and the worked example of program_timing.hpp.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/timing/program_timing.hpp"

using namespace tilesim::sim;

namespace {
timed_step memory(pipe_id p, double occupancy, double latency, bool load = false, bool waits = false) {
  return {step_kind::memory, p, 1, occupancy, latency, load, waits};
}
timed_step lds(double occupancy, double latency) { return memory(pipe_id::lds, occupancy, latency); }
timed_step global(double occupancy, double latency) { return memory(pipe_id::global_load, occupancy, latency); }
timed_step barrier() { return {step_kind::barrier, pipe_id::lds, 0, 0, 0}; }
timed_step alu(double slots, double latency) { return {step_kind::alu, pipe_id::lds, slots, 0, latency, true, true}; }
// One workgroup, wave w on scheduler w % schedulers.
std::vector<timed_wave> group(const std::vector<std::vector<timed_step>>& steps, int schedulers = 4, int workgroup = 0) {
  std::vector<timed_wave> v;
  for (std::size_t w = 0; w < steps.size(); ++w) v.push_back({workgroup, static_cast<int>(w) % schedulers, steps[w]});
  return v;
}
}  // namespace

TEST_CASE("worked example: two waves share the LDS pipe; the second waits 4 cycles and completes at 18") {
  const auto r = time_waves(group({{lds(4, 10)}, {lds(4, 10)}}), {});
  CHECK(r.waves[0][0].complete == 14);
  CHECK(r.waves[1][0].start == 4);
  CHECK(r.total_cycles == 18);
  CHECK(r.pipe_busy[0] == 8);
}

TEST_CASE("worked example: 16 FMAs before each LDS instruction on one scheduler issue one wave after the other") {
  const auto r = time_waves(group({{alu(16, 4), lds(4, 10)}, {alu(16, 4), lds(4, 10)}}, 1), {});
  CHECK(r.waves[0][0].issue == 0);
  CHECK(r.waves[0][1].issue == 16);       // program order: after its own 16 slots; ties go to the lower wave
  CHECK(r.waves[1][0].issue == 17);       // the scheduler was busy with wave 0's FMAs and its LDS instruction
  CHECK(r.scheduler_busy[0] == 16 + 16 + 1 + 1);
  CHECK(r.total_cycles >= r.scheduler_busy[0]);
}

TEST_CASE("32 waves repeating one LDS instruction N times: cycles per warp access tend to its occupancy") {
  for (double occupancy : {1.731, 2.027, 4.019, 31.916}) {
    const auto r = time_waves(group(std::vector<std::vector<timed_step>>(32, std::vector<timed_step>(256, lds(occupancy, 30)))), {});
    const double per_access = r.total_cycles / (32.0 * 256.0);
    CHECK(per_access >= occupancy);
    CHECK(per_access <= occupancy * 1.01);
  }
}

TEST_CASE("a pipe serves one instruction at a time and a scheduler issues one step at a time: total >= each busy time") {
  const auto r = time_waves(group({{lds(3, 0), global(5, 100), lds(3, 0)}, {global(5, 100), lds(2, 0)}}), {});
  CHECK(r.pipe_busy[0] == 8);
  CHECK(r.pipe_busy[1] == 10);
  CHECK(r.total_cycles >= 10);
  CHECK(r.waves[1][0].start == 0);  // wave 1 issues its global load at 0, before wave 0 reaches its own
  CHECK(r.waves[0][1].start == 5);  // which waits for the pipe
  for (double busy : r.scheduler_busy) CHECK(r.total_cycles >= busy);
}

TEST_CASE("a barrier releases its workgroup only after all its waves arrived with their earlier instructions complete") {
  // Wave 0: a slow global load (completes at 0 + 8 + 500 = 508), then a barrier; wave 1 arrives at once.
  const auto r = time_waves(group({{global(8, 500), barrier(), lds(1, 0)}, {barrier(), lds(1, 0)}}), {20, 0});
  CHECK(r.waves[0][1].issue == 508);
  CHECK(r.waves[1][0].issue == 0);
  CHECK(r.waves[0][1].start == 528);
  CHECK(r.waves[1][0].start == 528);
  CHECK(r.waves[1][1].issue >= 528);
  CHECK(r.waves[0][2].issue >= 528);
}

TEST_CASE("workgroups sharing an SM wait at their own barriers only, and share its pipes") {
  std::vector<timed_wave> v = group({{global(8, 500), barrier(), lds(1, 0)}, {barrier(), lds(1, 0)}}, 4, 0);
  for (const timed_wave& w : group({{lds(4, 0), barrier(), lds(4, 0)}}, 4, 1)) v.push_back({1, 2, w.steps});
  const auto r = time_waves(v, {});
  CHECK(r.workgroup_cycles[1] == 8);     // workgroup 1: 0..4 on the LDS pipe, barrier at 4, 4..8
  CHECK(r.workgroup_cycles[0] == 510);   // workgroup 0 is held by its own global load (508), then 2 LDS slots
  CHECK(r.waves[1][1].issue == 508);     // wave 1 of workgroup 0 only goes on when wave 0 arrives
}

TEST_CASE("waves of one workgroup that reach different numbers of barriers are rejected, naming the waves") {
  std::string message;
  try {
    (void)time_waves(group({{barrier()}, {}}), {});
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  CHECK(message == "time_waves: wave 1 reaches 0 barriers but wave 0 of workgroup 0 reaches 1");
}

TEST_CASE("arithmetic and stores wait for the wave's earlier loads; a load does not; a store's latency is its own") {
  // LDS load (1 + 30 = completes 31), then 8 FMAs (issue 31..39, result at 39 + 4), then a global store.
  const auto r = time_waves(group({{memory(pipe_id::lds, 1, 30, true), alu(8, 4),
                                    memory(pipe_id::global_store, 2, 0, false, true), memory(pipe_id::lds, 1, 30, true)}}),
                            {});
  CHECK(r.waves[0][1].issue == 31);
  CHECK(r.waves[0][1].waited_on == static_cast<int>(pipe_id::lds));
  CHECK(r.waves[0][2].issue == 43);
  CHECK(r.waves[0][2].complete == 45);
  CHECK(r.waves[0][3].issue == 44);  // the next load only waits for the issue slot
}

TEST_CASE("start_cycles delays every wave's first issue") {
  const auto r = time_waves(group({{lds(1, 0)}, {lds(1, 0)}}), {0, 100});
  CHECK(r.waves[0][0].issue == 100);
  CHECK(r.waves[1][0].issue == 100);
  CHECK(r.total_cycles == 102);
}

TEST_CASE("a global instruction with a datapath share also holds the LDS pipe (sm90's unified L1 / shared memory)") {
  timed_step g = global(4, 100);
  g.datapath = 4;
  const auto r = time_waves(group({{g}, {lds(2, 0)}}), {});
  CHECK(r.waves[1][0].start == 4);  // the LDS access waits for the global data to cross the shared path
  CHECK(r.pipe_busy[static_cast<int>(pipe_id::lds)] == 4 + 2);
}

TEST_CASE("a cp.async landing waits for its own read only: tile k lands before tile k+1's later read completes") {
  // Wave: read of tile k (global, latency 500), read of tile k+1 issued after it (latency 500), then tile k's landing
  // (an LDS step waiting for step 0) and a plain load-consumer (waits for every earlier data-producing step).
  timed_step read_k = global(1, 500), read_next = global(1, 500);  // cp.async reads fill no register
  timed_step landing = lds(4, 10);
  landing.issue_slots = 0;
  landing.waits_for_step = 0;
  const auto r = time_waves(group({{read_k, alu(200, 0), read_next, landing}}), {});
  CHECK(r.waves[0][3].data_ready == r.waves[0][0].complete);
  CHECK(r.waves[0][3].issue < r.waves[0][2].complete);  // did not wait for tile k+1's read
  CHECK(r.waves[0][3].waited_on == static_cast<int>(pipe_id::global_load));
  // A barrier waits for the wave's earlier steps but not for a detached cp.async read (bar.sync is not a wait_group).
  timed_step detached_read = global(1, 500);
  detached_read.detached = true;
  const auto b = time_waves(group({{detached_read, barrier(), lds(4, 10)}}), {});
  CHECK(b.waves[0][1].complete < b.waves[0][0].complete);
  const auto attached = time_waves(group({{global(1, 500), barrier(), lds(4, 10)}}), {});
  CHECK(attached.waves[0][1].complete >= attached.waves[0][0].complete);
  // A step may only wait for an earlier step of its wave.
  timed_step bad = lds(4, 10);
  bad.waits_for_step = 0;
  CHECK_THROWS_AS(time_waves(group({{bad}}), {}), std::invalid_argument);
}
