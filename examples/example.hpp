// tilesim/examples/example.hpp: what one reference program contributes to the main job.
//
// DEFINITION. An example (a folder of examples/) is one tile program shown in several variants: a layout,
// a read pattern, a parameter set, each on one architecture. A variant is a name and a function that runs
// the program in the simulator and checks what it computed:
//   run()  ->  outcome { the simulated launch, passed, the check in words }
// The catalogue (examples/catalogue.hpp) prices every outcome on its architecture (sim/report) and prints
// one row per variant: wavefronts ideal/actual, global sectors, predicted cycles, the check.
//
// WORKED EXAMPLE. The LDS index-swapping example has a variant {"lds-index-swap", "ck-xor 2025, mfma read",
// "gfx942", run}; run() copies a 128x32 fp16 tile through CK's XOR-preshuffled LDS tile and reads it back as
// MFMA's A operand; its outcome says "output == input" and passes; priced on gfx942 its LDS load is 1-way.
//
// INVARIANTS: run() is deterministic (same inputs, same run); `check` names what was compared and, on a
// failure, the first element that differs; a variant's program is the same template the GPU kernels
// instantiate (gpu/kernels/kernels.cu), so what the table says is what the cross-check holds to hardware.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"

namespace tilesim::gpu {
struct crosscheck_point;  // gpu/crosscheck/crosscheck.hpp: an example's sm90 cases as GPU cross-check points
}

namespace tilesim::examples {

struct outcome {
  sim::run_result run;  // the launch as simulated (memory = the program's results)
  bool passed = false;  // the result check held
  std::string check;    // "output == input", "C == Eigen (max |err| 0)", "out[3] = 7, expected 5"
};

struct variant {
  std::string example;  // "lds-index-swap": the folder's example, as the table names it
  std::string name;     // "ck-xor 2025, mfma read"
  std::string arch;     // "sm90", "gfx90a", "gfx942" or "gfx950" (sim::arch_named)
  std::function<outcome()> run;
};

// Sets o.passed and o.check from comparing a program's output with the host's: `what` when they are equal, else
// "out[i] = got, expected want" for the first element that differs: check_output(o, got, want, "out == row sums").
template <class T>
void check_output(outcome& o, const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  o.passed = got == want;
  o.check = what;
  for (std::size_t i = 0; i < want.size() && i < got.size() && !o.passed; ++i)
    if (got[i] != want[i]) {
      o.check = "out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
      break;
    }
}

// A launch of `grid` workgroups of `block` threads at `arch`'s wave size and guard rules (sim/engine/arch_launch.hpp):
// launch_on("gfx942", 1, 256).wave_size == 64.
using sim::launch_on;

}  // namespace tilesim::examples
