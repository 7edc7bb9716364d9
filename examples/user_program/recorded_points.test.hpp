// tilesim/examples/user_program/recorded_points.test.hpp: the user programs' GPU recordings, as their replays read
// them (column sums, stencil, row sums, fp16 transpose: data/recordings/*.json written by tilesim::gpu::crosscheck
// --report), and the laws every replay holds them to.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/crosscheck/counters.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::examples {

// One recorded point and the file it came from.
struct recorded_point {
  std::string file;
  util::json_value point;
};

// Every point named `prefix`... of every recording the one-call cross-check wrote: recorded_points("stencil").
inline std::vector<recorded_point> recorded_points(const std::string& prefix) {
  std::vector<recorded_point> out;
  for (const auto& e : std::filesystem::directory_iterator("data/recordings")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream f(e.path());
    std::stringstream text;
    text << f.rdbuf();
    const util::json_value doc = util::parse_json(text.str(), util::json_duplicates::keep);
    if (doc["tool"].string() != "tilesim::gpu::crosscheck") continue;
    for (const util::json_value& p : doc["points"].elements())
      if (p["name"].string().rfind(prefix, 0) == 0) out.push_back({e.path().string(), p});
  }
  return out;
}

// Law: the twelve counters `report` predicts are the ones Nsight Compute counted for point p.
inline void check_recorded_counters(const util::json_value& p, const sim::program_report& report) {
  REQUIRE_MESSAGE(p["hardware"].get("counters"), "recorded without counters");
  const util::json_value want = gpu::to_json(gpu::counters_from_json(p["hardware"]["counters"]));
  const util::json_value got = gpu::to_json(gpu::predicted_counters(report));
  for (const auto& member : got.members())
    CHECK_MESSAGE(member.second.number() == want[member.first].number(),
                  member.first << ": simulator " << member.second.number() << ", GPU " << want[member.first].number());
}

// Law: every row of point p's Nsight source counters names one label and is "equal", with the instances (warp
// instructions executed), shared wavefronts and global sectors `report` gives that label.
inline void check_recorded_labels(const util::json_value& p, const sim::program_report& report) {
  REQUIRE(p.get("source_counters"));
  for (const util::json_value& row : p["source_counters"]["rows"].elements()) {
    REQUIRE(row["labels"].elements().size() == 1);
    const std::string label = row["labels"][0].string();
    CAPTURE(label);
    CHECK(row["status"].string() == "equal");
    long long instances = 0, wavefronts = 0, sectors = 0;
    for (const sim::instruction_report& i : report.instructions)
      if (i.label == label) {  // a cp.async's landing row is the LDS side of the same LDGSTS: wavefronts only
        if (!(i.async_copy && i.space == sim::memory_space::lds)) instances += i.instances;
        wavefronts += i.wavefronts, sectors += i.sectors;
      }
    CHECK(static_cast<long long>(row["gpu_instructions_executed"].number()) == instances);
    CHECK(static_cast<long long>(row["gpu_wavefronts"].number()) == wavefronts);
    CHECK(static_cast<long long>(row["gpu_sectors"].number()) == sectors);
  }
}

// Law (the price tag): point p ran its hand-written twin (gpu/reference/user_twins.hpp) on the same inputs and
// launch, the twin's outputs equal the simulator's, neither kernel uses local memory (0 B stack), and the tilesim
// kernel takes at most `limit` times the twin's cycles per block (the median block of the best launch).
inline void check_price_tag(const util::json_value& p, double limit = 1.10) {
  REQUIRE_MESSAGE(p.get("hand_written"), "recorded without its hand-written twin");
  CHECK(p["hand_written"]["output"]["mismatches"].number() == 0);
  CHECK(p["hardware"]["local_bytes_per_thread"].number() == 0);
  CHECK(p["hand_written"]["local_bytes_per_thread"].number() == 0);
  const double ratio = p["tilesim_over_hand_written"].number();
  MESSAGE(p["name"].string() << ": tilesim kernel " << p["hardware"]["cycles_per_block_median"].number()
                             << " cycles per block, hand-written " << p["hand_written"]["cycles_per_block_median"].number()
                             << " (" << ratio << "x)");
  CHECK(ratio <= limit);
}

}  // namespace tilesim::examples
