// tilesim/gpu/rtc_props/props_report.cpp: case records as JSON, and the replay of a recording (props_report.hpp).
#include "gpu/rtc_props/props_report.hpp"

#include <cmath>
#include <map>
#include <optional>

#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_json.hpp"
#include "gpu/rtc_props/props_sim.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::json_error;
using util::exact_u64;
using util::read_u64;

json_value measured_json(const counters& c) {
  const json_value all = to_json(c);
  json_value out = json_value::object{};
  for (std::size_t i = 0; i < measured_fields; ++i) out.set(all.members()[i].first, all.members()[i].second);
  return out;
}

json_value to_json(const case_record& r) {
  json_value v;
  v.set("index", r.index);
  if (r.draw >= 0) v.set("draw", r.draw);
  if (r.twin_of >= 0) v.set("twin_of", r.twin_of);
  v.set("kernel", r.kernel);
  v.set("case", to_json(r.device_case));
  v.set("input_seed", exact_u64(r.input_seed));
  v.set("results_equal", r.results_equal());
  const auto ce = r.counters_equal();
  v.set("counters_equal", ce ? json_value(*ce) : json_value());
  v.set("error", r.error.empty() ? json_value() : json_value(r.error));
  json_value compile;
  compile.set("seconds", r.compile.seconds);
  compile.set("cached", r.compile.cached);
  compile.set("stack_bytes", r.compile.stack_bytes);
  compile.set("spill_store_bytes", r.compile.spill_store_bytes);
  compile.set("spill_load_bytes", r.compile.spill_load_bytes);
  compile.set("registers", r.compile.registers);
  v.set("compile", compile);
  json_value sim;
  sim.set("counters", to_json(r.simulated));
  sim.set("cycles_per_workgroup", r.sim_cycles);
  sim.set("lds_bytes", static_cast<long long>(r.lds_bytes));
  sim.set("output_equals_input", r.sim_output_ok);
  sim.set("clean", r.sim_clean);
  sim.set("stores_per_element_ok", r.stores_ok);
  sim.set("note", r.sim_note.empty() ? json_value() : json_value(r.sim_note));
  v.set("simulator", sim);
  json_value gpu;
  gpu.set("ran", r.gpu_ran);
  gpu.set("output_equals_input", r.gpu_output_ok);
  gpu.set("first_mismatch", r.gpu_mismatch.empty() ? json_value() : json_value(r.gpu_mismatch));
  gpu.set("counters", r.measured ? measured_json(*r.measured) : json_value());
  gpu.set("cycles_per_block_median", r.gpu_cycles_median);
  gpu.set("cycles_per_block_min", r.gpu_cycles_min);
  gpu.set("cycles_per_block_max", r.gpu_cycles_max);
  gpu.set("registers", r.registers);
  gpu.set("local_bytes_per_thread", r.local_bytes);
  v.set("gpu", gpu);
  return v;
}

replay_result replay_recording(const json_value& report) {
  replay_result out;
  if (!report.get("tool") || report["tool"].string() != "tilesim-gpu props")
    throw json_error("not a tilesim-gpu props report (\"tool\" is not \"tilesim-gpu props\")");
  // The draw: the seed and kinds regenerate the cases unless they came from a file.
  const bool drawn = report.get("seed") && report.get("command") &&
                     report["command"].string().find("--cases-file") == std::string::npos;
  std::vector<props_kind> kinds = {props_kind::copy};
  if (report.get("kinds")) {
    std::string list;
    for (const json_value& k : report["kinds"].elements()) list += (list.empty() ? "" : ",") + k.string();
    try {
      kinds = parse_kinds(list);
    } catch (const std::invalid_argument& e) {
      throw json_error(std::string("kinds: ") + e.what());
    }
  }
  std::map<int, pair_cycles> timed_at;  // a timed case's position -> its side of a pair (drawn fields filled)
  for (const json_value& row : report["cases"].elements()) {
    ++out.cases;
    props_case c = case_from_json(row["case"]);
    // A position or generator index outside 0..10^6 is no run's (props caps --cases at 10^5; --pairs doubles it).
    const auto small_index = [&](const char* key) {
      if (!row.get(key)) return -1;
      const double v = row[key].number();
      if (!(v >= 0 && v <= 1e6) || v != static_cast<double>(static_cast<int>(v)))
        throw json_error(std::string("a case's \"") + key + "\" is not a case index (" + util::dump(row[key]) + ")");
      return static_cast<int>(v);
    };
    const int position = small_index("index");
    if (position < 0) throw json_error("a case has no \"index\"");
    const int twin_of = small_index("twin_of"), draw = small_index("draw");
    if (drawn) {
      ++out.regenerated;
      const int at = draw >= 0 ? draw : position;
      props_case expected = generate_case(read_u64(report["seed"], "seed"), at, c.fault, 32, kinds).value();
      const std::optional<props_case> twin = twin_of >= 0 ? layout_twin(expected) : std::optional<props_case>(expected);
      if (!twin || !(*twin == c))
        out.not_regenerated.push_back("case " + std::to_string(position) + ": the seed and kinds draw another case" +
                                      (twin_of >= 0 ? " (or its layout twin)" : ""));
      if (row.get("kernel") && row["kernel"].string() != kernel_name(c))
        out.not_regenerated.push_back("case " + std::to_string(position) + ": kernel " + row["kernel"].string() +
                                      " recorded, the case's text names " + kernel_name(c));
    }
    c.fault = 0;  // the simulator side never runs the device fault
    const case_inputs in = make_case_inputs(c, read_u64(row["input_seed"], "input_seed"));
    const case_simulation s = simulate_case(c, in);
    const std::string who = "case " + std::to_string(position);
    const json_value now = to_json(s.predicted);
    const json_value* gpu = row.get("gpu");
    if (gpu != nullptr && !gpu->is_null() && gpu->get("cycles_per_block_median") &&
        (*gpu)["cycles_per_block_median"].number() > 0) {
      const double measured = (*gpu)["cycles_per_block_median"].number();
      out.cycle_errors.push_back(std::fabs(s.cycles_per_workgroup - measured) / measured);
      out.cycle_errors_by_kind[kind_name(c.kind)].push_back(out.cycle_errors.back());
      out.cycles.push_back({static_cast<double>(position), s.cycles_per_workgroup, measured});
      pair_cycles& side = timed_at[position];
      side.drawn = position, side.drawn_layout = layout_name(c.layout);
      side.predicted_drawn = s.cycles_per_workgroup, side.measured_drawn = measured;
      if (const auto drawn_side = timed_at.find(twin_of); twin_of >= 0 && drawn_side != timed_at.end()) {
        pair_cycles p = drawn_side->second;
        p.twin = position, p.twin_layout = side.drawn_layout;
        p.predicted_twin = side.predicted_drawn, p.measured_twin = side.measured_drawn;
        out.pairs.push_back(p);
      }
    }
    if (gpu == nullptr || gpu->is_null() || !gpu->get("counters") || (*gpu)["counters"].is_null()) continue;
    ++out.measured;
    const json_value& recorded = (*gpu)["counters"];
    bool differs = false;
    for (const auto& [key, value] : now.members())
      if (recorded.get(key) && recorded[key] != value) {
        differs = true;
        out.mismatches.push_back(who + ": " + key + " recorded (gpu) " +
                                 std::to_string(static_cast<long long>(recorded[key].number())) + ", simulated " +
                                 std::to_string(static_cast<long long>(value.number())));
      }
    if (differs) out.differing.push_back(position);
  }
  return out;
}

}  // namespace tilesim::gpu::props
