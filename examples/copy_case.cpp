// tilesim/examples/copy_case.cpp: see copy_case.hpp.
#include "examples/copy_case.hpp"

#include <cstdint>
#include <stdexcept>

#include "examples/example_point.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::examples {

outcome run_copy_case(const copy_case& c) {
  const sim::launch l = launch_on(c.arch, 1, c.block);
  const std::vector<std::uint16_t> input = programs::copy_input<std::uint16_t>(programs::copy_elements(l, c.params));
  outcome o;
  o.run = programs::run_copy<std::uint16_t>(l, c.params, input);
  const std::vector<std::uint16_t> out = o.run.memory.get<std::uint16_t>(1);  // run_copy puts the output in slot 1
  for (std::size_t i = 0; i < input.size(); ++i)
    if (i >= out.size() || out[i] != input[i]) {
      o.check = "out[" + std::to_string(i) + "] = " + (i < out.size() ? std::to_string(out[i]) : "missing") +
                ", expected " + std::to_string(input[i]);
      return o;
    }
  o.passed = out.size() == input.size();
  o.check = o.passed ? "output == input" : "the output holds " + std::to_string(out.size()) + " elements";
  return o;
}

std::vector<variant> copy_variants(const std::string& example, const std::vector<copy_case>& cases) {
  std::vector<variant> out;
  for (const copy_case& c : cases) out.push_back({example, c.name, c.arch, [c] { return run_copy_case(c); }});
  return out;
}

copy_lds_cost price_copy_case(const copy_case& c, sim::run_result* keep) {
  outcome o = run_copy_case(c);
  const sim::program_report rep = sim::make_program_report(sim::arch_named(c.arch), o.run);
  copy_lds_cost n;
  for (const sim::instruction_report& i : rep.instructions) {
    if (i.label == "lds store") {
      n.store = i.wavefronts;
      n.store_ideal = i.ideal;
      n.store_ways = i.max_ways;
    } else if (i.label == "lds load" || i.label == "ldmatrix") {  // the read back, per-lane or through ldmatrix
      n.load = i.wavefronts;
      n.load_ideal = i.ideal;
      n.load_ways = i.max_ways;
    }
  }
  if (keep) *keep = std::move(o.run);
  return n;
}

const copy_case& find_copy_case(const std::vector<copy_case>& cases, const std::string& name, const std::string& arch) {
  for (const copy_case& c : cases)
    if (c.name == name && c.arch == arch) return c;
  throw std::out_of_range("no copy case '" + name + "' on " + arch);
}

std::vector<gpu::crosscheck_point> copy_crosscheck_points(const std::string& example, const std::vector<copy_case>& cases) {
  std::vector<gpu::crosscheck_point> v;
  for (const copy_case& c : cases)
    if (c.arch == "sm90") {
      v.push_back(example_point("copy_fp16", example, c.name, 1, c.block, c.params));
    }
  return v;
}

}  // namespace tilesim::examples
