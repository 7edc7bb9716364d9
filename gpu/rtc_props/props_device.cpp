// tilesim/gpu/rtc_props/props_device.cpp: the real GPU behind `tilesim-gpu props` and `props-pass` (needs cudart).
//
// real_backend: describe_device() (gpu/kernels/device_run.hpp), run_module() (the NVRTC-compiled kernel through the CUDA
// runtime's library API), one Nsight Compute run over props-pass per batch (counters_pass.hpp's measure_batch),
// compute-sanitizer over props-pass (sanitize). props-pass is what those two run; `props-pass --compile-worker`
// is one of compile_batch's worker processes (compile_batch.hpp).
#include <cstdio>

#include "gpu/rtc_props/compile_batch.hpp"
#include "gpu/rtc_props/counters_pass.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/module_runner.hpp"
#include "gpu/rtc_props/props_command.hpp"
#include "gpu/rtc_props/props_internal.hpp"
#include "gpu/rtc_props/props_sim.hpp"

namespace tilesim::gpu::props {
namespace {

device_backend real_backend() {
  device_backend b;
  b.describe = [] { return describe_device(); };
  b.run = [](const props_case&, const std::string& cubin, const std::string& name, const device_launch& l,
             std::vector<byte_buffer> buffers) { return run_module(cubin, name, l, std::move(buffers)); };
  b.count = [](const std::vector<props_case>& cases, const options& o) { return measure_batch(cases, o); };
  b.sanitize = [](const std::vector<props_case>& cases, const options& o, const std::string& tool) {
    return sanitize(cases, o, tool);
  };
  return b;
}

}  // namespace

int props_command(std::vector<std::string> args, const std::string& command_line) {
  return run_props(std::move(args), command_line, real_backend());
}

int props_pass_command(std::vector<std::string> args) {
  if (!args.empty() && args[0] == "--compile-worker") return compile_worker_main({args.begin() + 1, args.end()});
  const options o = parse(args, true);
  const std::vector<props_case> cases = read_cases_file(*o.case_file);
  describe_device();  // no GPU: exit 77 before any compile
  const std::vector<compiled_kernel> modules = compile_all(cases, o.rtc, o.jobs, false);
  int wrong = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string name = kernel_name(cases[i]);
    if (!modules[i].ok) throw std::runtime_error("compile failed for " + name + ":\n" + modules[i].log);
    props_case clean = cases[i];
    clean.fault = 0;
    const case_inputs in = make_case_inputs(clean, 1 + i);
    const std::size_t lds = lds_bytes_of(clean);
    const device_result r = run_module(modules[i].cubin, name, {static_cast<int>(cases[i].grid), static_cast<int>(cases[i].threads), lds, false}, in.buffers);
    const case_check c = check_case_output(clean, in, r.buffers[1]);
    wrong += c.mismatches != 0;
    std::printf("props-pass: %s: output %s\n", name.c_str(), c.mismatches ? c.first_mismatch.c_str() : "ok");
  }
  std::fflush(stdout);
  return wrong && !o.counting ? 1 : 0;
}

}  // namespace tilesim::gpu::props
