// tilesim/cli/tilesim_accuracy.cpp: `tilesim-accuracy RECORDING.json`: the simulator's cycles against
// a recorded GPU run, as the Markdown tables of accuracy.hpp; `tilesim-accuracy RECORDING.json --point NAME`:
// that point's simulator report (sim/report, JSON), to see where its predicted cycles go. CPU only. Exit 2 for
// a missing or bad file or a point the recording does not have; `tilesim-accuracy --help`: usage, exit 0.
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpu/crosscheck/accuracy.hpp"
#include "gpu/crosscheck/crosscheck.hpp"

int main(int argc, char** argv) {
  const bool one_point = argc == 4 && std::string(argv[2]) == "--point";
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << "usage: tilesim-accuracy RECORDING.json [--point NAME]\n"
                 "\n"
                 "The simulator's cycles against a recorded GPU run (a tilesim-gpu crosscheck --report file, e.g.\n"
                 "data/recordings/h100-zero-overhead.json), as Markdown tables: per program and per point, the measured\n"
                 "and predicted cycles per block and their error. CPU only.\n"
                 "\n"
                 "options:\n"
                 "  --point NAME   that point's simulator report (JSON, as tilesim run --json) instead of the tables\n"
                 "  --help         this text\n"
                 "\n"
                 "exit codes:\n"
                 "  0   printed\n"
                 "  2   usage error, an unreadable or malformed recording, or a point it does not have\n";
    return 0;
  }
  if (argc != 2 && !one_point) {
    std::cerr << "usage: tilesim-accuracy RECORDING.json [--point NAME]   (a tilesim-gpu crosscheck --report file, "
                 "e.g. data/recordings/h100-zero-overhead.json; --help)\n";
    return 2;
  }
  std::ifstream f(argv[1]);
  if (!f) {
    std::cerr << "tilesim-accuracy: cannot read '" << argv[1] << "'\n";
    return 2;
  }
  std::stringstream text;
  text << f.rdbuf();
  try {
    const tilesim::util::json_value recording = tilesim::util::parse_json(text.str(), tilesim::util::json_duplicates::keep);
    if (one_point) {
      for (const tilesim::util::json_value& p : recording["points"].elements()) {
        if (p["name"].string() != argv[3]) continue;
        const tilesim::gpu::crosscheck_point point = tilesim::gpu::point_from_json(p);
        const auto in = tilesim::gpu::make_inputs(point, tilesim::util::read_u64(p["seed"], "seed of " + point.name));
        std::cout << "measured cycles per block (median): " << p["hardware"]["cycles_per_block_median"].number() << "\n"
                  << tilesim::sim::to_json(tilesim::gpu::simulate(point, in).report);
        return 0;
      }
      std::cerr << "tilesim-accuracy: " << argv[1] << " has no point named '" << argv[3] << "'\n";
      return 2;
    }
    std::cout << tilesim::gpu::accuracy_markdown(tilesim::gpu::accuracy_of(recording));
  } catch (const std::exception& e) {
    std::cerr << "tilesim-accuracy: " << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
  return 0;
}
