// tilesim/gpu/rtc_props/sanitizer_verdict.cpp: compute-sanitizer's summary lines read (sanitizer_verdict.hpp).
#include "gpu/rtc_props/sanitizer_verdict.hpp"

#include <regex>

namespace tilesim::gpu::props {

std::string sanitizer_findings(const std::string& tool, int exit_code, const std::string& log) {
  const bool race = tool == "racecheck";
  // The summary line and the counts in it that must be 0: memcheck's errors; racecheck's hazards, errors, warnings.
  const std::regex summary(race ? R"(RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\))"
                                : R"(ERROR SUMMARY: (\d+) errors?)");
  std::smatch m;
  const std::string prefix = "exit " + std::to_string(exit_code);
  if (!std::regex_search(log, m, summary)) {
    const std::string end = log.size() > 300 ? log.substr(log.size() - 300) : log;
    return prefix + ", no " + (race ? "RACECHECK" : "ERROR") + " SUMMARY line; the log ends: " + end;
  }
  bool counted = false;
  for (std::size_t i = 1; i < m.size(); ++i) counted = counted || m[i].str() != "0";
  return exit_code == 0 && !counted ? "" : prefix + ": " + m[0].str();
}

}  // namespace tilesim::gpu::props
