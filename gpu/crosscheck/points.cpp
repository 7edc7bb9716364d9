// tilesim/gpu/crosscheck/points.cpp: the cross-check's catalogue of points and their JSON form; what is a
// program's own (its points, its parameters' JSON) its adapter says (program_adapter.hpp).
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/crosscheck/program_adapter.hpp"

namespace tilesim::gpu {

using util::json_value;
using util::json_error;

std::vector<crosscheck_point> catalogue() {
  std::vector<crosscheck_point> v;
  for (const program_adapter* a : registered_programs())
    for (crosscheck_point& p : a->builtin_points()) v.push_back(std::move(p));
  for (crosscheck_point& p : registered_example_points()) v.push_back(std::move(p));
  return v;
}

json_value to_json(const crosscheck_point& p) {
  const program_adapter& a = p.adapter();
  json_value v;
  v.set("name", p.name);
  v.set("program", a.name);
  if (!p.example.empty()) v.set("example", p.example);
  json_value params;
  a.params_to_json(p, params);
  v.set("params", std::move(params));
  json_value launch;
  launch.set("grid", p.grid);
  launch.set("block", p.block);
  launch.set("wave_size", p.wave_size);
  v.set("launch", std::move(launch));
  return v;
}

namespace {
// Example cases renamed after recordings named them (same parameters): the recorded name -> today's.
constexpr std::pair<const char*, const char*> renamed_cases[] = {
    {"example lds-index-swap: row-major, ldmatrix read", "example lds-index-swap: row-major, LDS.128 at ldmatrix rows"},
    {"example lds-index-swap: padded, ldmatrix read", "example lds-index-swap: padded, LDS.128 at ldmatrix rows"},
    {"example lds-index-swap: ck-xor 2024, ldmatrix read", "example lds-index-swap: ck-xor 2024, LDS.128 at ldmatrix rows"},
    {"example lds-index-swap: ck-xor 2025, ldmatrix read", "example lds-index-swap: ck-xor 2025, LDS.128 at ldmatrix rows"},
};
}  // namespace

crosscheck_point point_from_json(const json_value& v) {
  crosscheck_point p;
  p.name = v["name"].string();
  for (const auto& [recorded, today] : renamed_cases)
    if (p.name == recorded) p.name = today;
  const std::string program = v["program"].string();
  const program_adapter* a = adapter_named(program);
  if (!a) throw json_error("unknown program \"" + program + "\"");
  p.program = a->name;
  if (const json_value* example = v.get("example")) {  // a reference program's case: its parameters live in examples/
    for (const crosscheck_point& known : catalogue())
      if (known.name == p.name && known.example == example->string() && known.program == p.program) return known;
    throw json_error("the recording's point \"" + p.name + "\" is no case of example " + example->string() +
                     " any more (examples/ renamed or removed it)");
  }
  a->params_from_json(v["params"], p);
  const json_value& l = v["launch"];
  p.grid = static_cast<int>(l["grid"].number());
  p.block = static_cast<int>(l["block"].number());
  p.wave_size = static_cast<int>(l["wave_size"].number());
  return p;
}

}  // namespace tilesim::gpu
