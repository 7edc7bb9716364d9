// tilesim/gpu/props/replay.test.cpp: every tilesim-gpu props recording in gpu/recordings/ replayed on the simulator.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu/props/props_generators.hpp"
#include "gpu/props/props_json.hpp"
#include "gpu/props/props_report.hpp"
#include "gpu/props/props_sim.hpp"

namespace tilesim::gpu::props {

TEST_SUITE("props-gpu") {

// Law: a recording's simulator counters (and the GPU's, where they were equal) are what the simulator computes
// now for the recorded case: the simulator side of every recorded case replays exactly.
TEST_CASE("every props recording replays on the simulator") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator("gpu/recordings")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("props-", 0) != 0 || entry.path().extension() != ".json") continue;
    ++files;
    std::ifstream f(entry.path());
    std::stringstream s;
    s << f.rdbuf();
    const replay_result r = replay_recording(parse_json(s.str()));
    INFO(name, ": ", r.mismatches.size(), " mismatches; first: ", r.mismatches.empty() ? "" : r.mismatches[0]);
    CHECK(r.cases > 0);
    CHECK(r.mismatches.empty());
  }
  MESSAGE(files, " props recordings replayed");
}

// Law: the replay detects a recorded counter that the simulator does not reproduce (it can fail).
TEST_CASE("the replay catches a changed counter") {
  json_value report;
  report.set("tool", "tilesim-gpu props");
  json_value::array rows;
  for (int i = 0; i < 3; ++i) {
    const props_case c = generate_case(77, i).value();
    const case_inputs in = make_case_inputs(c, 5);
    json_value row;
    row.set("index", i);
    row.set("case", to_json(c));
    row.set("input_seed", exact_u64(5));
    json_value sim;
    sim.set("counters", to_json(simulate_case(c, in).predicted));
    row.set("simulator", sim);
    row.set("counters_equal", true);
    json_value gpu;
    gpu.set("counters", sim["counters"]);
    row.set("gpu", gpu);
    rows.push_back(row);
  }
  report.set("cases", rows);
  CHECK(replay_recording(report).mismatches.empty());
  json_value& counters = report.at("cases").at(1).at("gpu").at("counters");
  counters.at("lds_wavefronts_st") = json_value(counters["lds_wavefronts_st"].number() + 1);
  const replay_result r = replay_recording(report);
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].find("case 1: lds_wavefronts_st recorded (gpu)") == 0);
}

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
