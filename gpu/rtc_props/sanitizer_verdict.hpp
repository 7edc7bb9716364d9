// tilesim/gpu/rtc_props/sanitizer_verdict.hpp: what one compute-sanitizer run over props-pass found, read from its log.
//
// DEFINITION. sanitizer_findings(tool, exit_code, log) is "" when the run was clean, else a short text naming what it
// found. compute-sanitizer runs with --error-exitcode 3, so a nonzero exit code means the tool (or the program) failed;
// each tool then ends its log with its own summary line, and clean means that line counts nothing:
//   memcheck:  "========= ERROR SUMMARY: 0 errors"
//   racecheck: "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
// (racecheck prints no ERROR SUMMARY line: the harness once looked for memcheck's line in both and called a clean
// racecheck unclean.) A log without its tool's summary (the tool did not finish) is not clean either.
//
// WORKED EXAMPLE.
//   sanitizer_findings("racecheck", 0, "...RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n") == ""
//   sanitizer_findings("racecheck", 3, "...RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n")
//       == "exit 3: RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)"
//   sanitizer_findings("memcheck", 0, "props-pass: ... output ok\n")
//       == "exit 0, no ERROR SUMMARY line; the log ends: props-pass: ... output ok"
//
// INVARIANTS. Clean needs the exit code 0 and the tool's own summary line with every count 0; anything else names
// the exit code and either that line or the log's last 300 characters (where a tool's verdict is).
#pragma once

#include <string>

namespace tilesim::gpu::props {

// "" when compute-sanitizer `tool` ("memcheck" or "racecheck") found nothing, else what it found (see above).
std::string sanitizer_findings(const std::string& tool, int exit_code, const std::string& log);

}  // namespace tilesim::gpu::props
