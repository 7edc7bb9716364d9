// tilesim/gpu/rtc_props/counters_pass.cpp: Nsight Compute in batches on a deadline, and --counters-only (counters_pass.hpp).
#include "gpu/rtc_props/counters_pass.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "util/args.hpp"
#include "util/output_file.hpp"
#include "gpu/crosscheck/ncu.hpp"
#include "gpu/runtime/device_error.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_json.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::json_error;
using util::parse_json;
using util::dump;
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Sets member `key` of object v, replacing it when present.
void put(json_value& v, const std::string& key, json_value value) {
  if (v.get(key)) v.at(key) = std::move(value);
  else v.set(key, std::move(value));
}

std::string tail(const std::string& path, std::size_t n) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  const std::string t = s.str();
  return t.size() > n ? "..." + t.substr(t.size() - n) : t;
}

}  // namespace

const std::vector<std::string>& props_counter_metrics() {
  // counter_metrics()'s first eight (gpu/crosscheck/counters.cpp): the measured fields (props_report.hpp).
  static const std::vector<std::string> m(counter_metrics().begin(), counter_metrics().begin() + measured_fields);
  return m;
}

std::vector<counters> measure_batch(const std::vector<props_case>& cases, const options& o) {
  const std::string file = write_cases_file(cases);
  const std::string dir = file.substr(0, file.rfind('/'));
  const std::string csv = dir + "/counters.csv", err = dir + "/ncu.err";
  std::string metrics;
  for (const std::string& m : props_counter_metrics()) metrics += (metrics.empty() ? "" : ",") + m;
  std::string limit;  // killed at the deadline: its cases stay pending
  if (o.counters_deadline != clock_type::time_point::max()) {
    const double left = std::chrono::duration<double>(o.counters_deadline - clock_type::now()).count();
    if (left < 1) throw device_error("no time left before the counters deadline");
    // TERM at the deadline (ncu ends its target), KILL 5 s later; timeout signals its whole process group.
    limit = "timeout -k 5 " + std::to_string(static_cast<long long>(left)) + " ";
  }
  const std::string command = limit + ncu_program() + " --csv --clock-control none --cache-control none --log-file " + csv +
                              " --metrics " + metrics + " /proc/" + std::to_string(getpid()) + "/exe" + pass_args(file, o) +
                              " --counting > " + err + " 2>&1";
  const int status = std::system(command.c_str());
  if (status != 0 || access(csv.c_str(), R_OK) != 0)
    throw device_error("ncu failed (status " + std::to_string(status) + (limit.empty() ? "" : ", maybe killed at the deadline") +
                       "): " + tail(err, 600) + " [" + command + "]");
  const std::vector<ncu_launch> launches = read_ncu_csv(csv);
  if (launches.size() != cases.size())
    throw device_error("ncu profiled " + std::to_string(launches.size()) + " kernels, expected " + std::to_string(cases.size()));
  std::vector<counters> out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (launches[i].kernel.find(kernel_name(cases[i])) == std::string::npos)
      throw device_error("ncu kernel " + std::to_string(i) + " is \"" + launches[i].kernel + "\", expected " + kernel_name(cases[i]));
    out.push_back(launches[i].measured);
  }
  std::system(("rm -rf " + dir).c_str());
  return out;
}

batched_counters count_in_batches(const std::vector<props_case>& cases, const options& o, const device_backend& backend) {
  batched_counters r;
  r.measured.resize(cases.size());
  const auto t0 = clock_type::now();
  const std::size_t k = static_cast<std::size_t>(std::max(1, o.counters_batch));
  double per_case = 0;  // the slowest slice's seconds per case so far
  std::size_t done = 0;
  for (std::size_t first = 0; first < cases.size(); first += k) {
    const std::size_t last = std::min(cases.size(), first + k);
    if (o.counters_deadline != clock_type::time_point::max()) {
      const double left = std::chrono::duration<double>(o.counters_deadline - clock_type::now()).count();
      if (left < per_case * static_cast<double>(last - first) || left < 1) {
        r.stopped = "the counters deadline: " + std::to_string(cases.size() - first) + " cases left unmeasured (" +
                    std::to_string(static_cast<long long>(std::max(0.0, left))) + " s left; --counters-only finishes them)";
        break;
      }
    }
    const auto b0 = clock_type::now();
    try {
      const std::vector<counters> m = backend.count(std::vector<props_case>(cases.begin() + static_cast<std::ptrdiff_t>(first),
                                                                             cases.begin() + static_cast<std::ptrdiff_t>(last)), o);
      if (m.size() != last - first) throw std::runtime_error("the profiler returned " + std::to_string(m.size()) + " counters");
      for (std::size_t i = first; i < last; ++i) r.measured[i] = m[i - first];
      ++r.batches;
      done += last - first;
    } catch (const std::exception& e) {  // this slice stays pending; the next may still run
      const std::string why = "cases " + std::to_string(first) + ".." + std::to_string(last - 1) + " of this pass: " + e.what();
      std::fprintf(stderr, "\ncounters: %s\n", why.c_str());
      if (r.stopped.empty()) r.stopped = why;
    }
    per_case = std::max(per_case, seconds_since(b0) / static_cast<double>(last - first));
    progress("counters", last, cases.size());
  }
  r.seconds = seconds_since(t0);
  std::fprintf(stderr, "counters: %zu of %zu kernels measured in %d ncu runs of up to %zu, %.0f s\n", done, cases.size(),
               r.batches, k, r.seconds);
  return r;
}

void summarize_counters(json_value& report, bool measuring) {
  long long measured = 0, pending = 0, differ = 0;
  for (const json_value& row : report["cases"].elements()) {
    const json_value& equal = row["counters_equal"];
    measured += !equal.is_null();
    differ += !equal.is_null() && !equal.boolean();
    pending += measuring && equal.is_null() && row["gpu"]["ran"].boolean();
  }
  if (!report.get("summary")) report.set("summary", json_value::object{});
  json_value& s = report.at("summary");
  put(s, "counters_measured", measured);
  put(s, "counters_pending", pending);
  put(s, "cases_counters_differ", differ);
  put(s, "counters_equal", differ ? json_value(false) : pending == 0 && measured > 0 ? json_value(true) : json_value());
}

int counters_only(const options& o, const device_backend& backend) {
  if (!o.report) throw cli::usage_error("--counters-only needs --report FILE (the report of an earlier run, rewritten in place)");
  std::ifstream f(*o.report);
  if (!f) throw cli::usage_error("--counters-only: cannot read --report " + *o.report);
  std::stringstream text;
  text << f.rdbuf();
  json_value report;
  std::vector<std::size_t> rows;
  std::vector<props_case> cases;
  try {
    report = parse_json(text.str());
    if (!report.get("tool") || report["tool"].string() != "tilesim-gpu props")
      throw json_error("\"tool\" is not \"tilesim-gpu props\"");
    const json_value::array& all = report["cases"].elements();
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i]["gpu"]["ran"].boolean() && all[i]["counters_equal"].is_null())
        rows.push_back(i), cases.push_back(case_from_json(all[i]["case"]));
  } catch (const std::exception& e) {  // json_error, spec_error: bad input, named
    throw cli::usage_error("--counters-only: --report " + *o.report + " is not a props report: " + e.what());
  }
  const device_description device = backend.describe();
  std::printf("tilesim-gpu props --counters-only: %zu of %zu cases of %s pending, device %s\n", cases.size(),
              report["cases"].elements().size(), o.report->c_str(), device.name.c_str());
  std::fflush(stdout);
  // props-pass under ncu loads each module from the cache: compile what this machine's cache lacks first.
  const std::vector<compiled_kernel> modules = compile_all(cases, o.rtc, o.jobs, true);
  std::vector<props_case> ready;
  std::vector<std::size_t> at;
  for (std::size_t k = 0; k < cases.size(); ++k)
    if (modules[k].ok) ready.push_back(cases[k]), at.push_back(rows[k]);
  const batched_counters b = count_in_batches(ready, o, backend);
  json_value& list = report.at("cases");
  for (std::size_t k = 0; k < ready.size(); ++k) {
    if (!b.measured[k]) continue;
    json_value& row = list.at(at[k]);
    put(row.at("gpu"), "counters", measured_json(*b.measured[k]));
    put(row, "counters_equal", *b.measured[k] == counters_from_json(row["simulator"]["counters"]));
  }
  summarize_counters(report);
  json_value& s = report.at("summary");
  put(s, "counters_error", b.stopped.empty() && ready.size() == cases.size() ? json_value()
                           : json_value(b.stopped.empty() ? std::string("some modules did not compile") : b.stopped));
  json_value pass;
  pass.set("command", "tilesim-gpu props --counters-only");
  pass.set("date", utc_now());
  pass.set("kernels", static_cast<long long>(ready.size()));
  pass.set("ncu_runs", b.batches);
  pass.set("seconds", b.seconds);
  if (!s.get("counters_passes")) s.set("counters_passes", json_value::array{});
  s.at("counters_passes").push(pass);
  cli::write_file_replacing(*o.report, dump(report) + "\n", "--report");
  const long long pending = static_cast<long long>(s["counters_pending"].number());
  const long long differ = static_cast<long long>(s["cases_counters_differ"].number());
  std::printf("counters: %lld cases measured, %lld differ, %lld still pending%s; wrote %s\n",
              static_cast<long long>(s["counters_measured"].number()), differ, pending,
              pending ? " (run --counters-only again)" : "", o.report->c_str());
  return pending == 0 && differ == 0 ? 0 : 1;
}

}  // namespace tilesim::gpu::props
