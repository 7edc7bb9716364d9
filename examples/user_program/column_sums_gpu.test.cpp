// A user's test suite asserting a GPU cross-check in one line (gpu/user/doctest_crosscheck.hpp): the column sums
// program on the GPU equals the simulator, outputs and counters; on a machine without a GPU it reports
// "skipped: no GPU" and passes. And, through the real CUDA runtime: the report holds the simulator's side with or
// without a GPU (counts that follow from the program's shape; the JSON point's simulator counters), and without
// one the JSON's GPU part is {"status": "skipped", "reason": the runtime's "no GPU: ..."}, with no GPU numbers.
#include <doctest/doctest.h>

#include <vector>

#include "examples/user_program/column_sums.hpp"
#include "gpu/crosscheck/counters.hpp"
#include "gpu/user/doctest_crosscheck.hpp"

TEST_CASE("column sums on the GPU: outputs and Nsight Compute's counters equal the simulator's, both layouts") {
  for (const bool swizzled : {false, true}) {
    tilesim::gpu::user_buffers buffers;
    std::vector<float> tiles(4 * 64 * 64);
    for (std::size_t i = 0; i < tiles.size(); ++i) tiles[i] = static_cast<float>((i * 7) % 64);
    const int in = buffers.input<float>("in", tiles);
    const int out = buffers.output<float>("out", 4 * 64, -1.0f);
    TILESIM_CHECK_CROSSCHECK(tilesim::gpu::crosscheck(tilesim::examples::column_sums<4>{in, out, swizzled},
                                                      {.grid = 4, .block = 256, .wave_size = 32}, buffers));
  }
}

TEST_CASE("column sums: the report holds the simulator's side with or without a GPU; without one the GPU part is skipped") {
  tilesim::gpu::user_buffers buffers;
  const int in = buffers.input<float>("in", tilesim::examples::column_sums_inputs(4, 7));
  const int out = buffers.output<float>("out", 4 * 64, -1.0f);
  tilesim::gpu::crosscheck_options o;
  o.name = "column sums, simulator side";
  o.counters = false;  // the suite's other case counts with Nsight Compute
  o.repeat = 1;
  const tilesim::gpu::user_report r =
      tilesim::gpu::crosscheck(tilesim::examples::column_sums<4>{in, out, false}, {.grid = 4, .block = 256}, buffers, o);
  INFO(r.text);
  CHECK(r.launch.wave_size == 32);  // left out: sm90's
  // From the program's shape: 4 tiles of 64 x 64 floats loaded 4 floats per lane (32 warp loads of 512 B per tile),
  // 16 column reads and 4 final reads per thread (of 256 and of 64), one tile store per load, one partial store
  // per thread, one sum store per column.
  CHECK(r.simulator.global_instructions_ld == 4 * (64 * 64 / 4) / 32);
  CHECK(r.simulator.global_sectors_ld == 4 * 64 * 64 * 4 / 32);
  CHECK(r.simulator.global_instructions_st == 4 * 64 / 32);
  CHECK(r.simulator.global_sectors_st == 4 * 64 * 4 / 32);
  CHECK(r.simulator.lds_instructions_ld == 4 * (256 * 16 + 64 * 4) / 32);
  CHECK(r.simulator.lds_instructions_st == 4 * ((64 * 64 / 4) + 256) / 32);
  CHECK(r.simulator == tilesim::gpu::predicted_counters(r.report));
  const tilesim::util::json_value& p = r.json["points"][0];
  CHECK(tilesim::gpu::counters_from_json(p["simulator"]["counters"]) == r.simulator);
  CHECK(p["simulator"]["cycles_per_workgroup"].number() == r.predicted_cycles);
  if (r.skipped) {
    CHECK(r.why_skipped.rfind("no GPU", 0) == 0);
    CHECK(p["gpu"]["status"].string() == "skipped");
    CHECK(p["gpu"]["reason"].string() == r.why_skipped);
    CHECK(p.get("hardware") == nullptr);
    CHECK(r.json["device"].is_null());
    CHECK(r.text.find("skipped: " + r.why_skipped) != std::string::npos);
    CHECK(r.text.find("lds_instructions_ld      sim " + std::to_string(r.simulator.lds_instructions_ld)) != std::string::npos);
  } else {
    CHECK(p["gpu"]["status"].string() == (r.gpu_error.empty() ? "measured" : "failed"));
    CHECK(r.passed());
  }
}
