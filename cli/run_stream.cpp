// tilesim/cli/run_stream.cpp: see run_stream.hpp.
#include "cli/run_stream.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

#include "util/output_file.hpp"
#include "cli/run_output.hpp"
#include "sim/pricing/partial_report.hpp"

namespace tilesim::cli {

namespace {

// A progress line on stderr, redrawn in place on a terminal, once the run has taken a second; elsewhere (with
// --progress) a line every 10 seconds and at the end.
std::function<void(long long, long long)> progress_reporter(bool forced) {
  const bool terminal = isatty(2) != 0;
  if (!terminal && !forced) return {};
  struct state {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    double last_line = -1;
    bool shown = false;
  };
  auto st = std::make_shared<state>();
  return [st, terminal](long long done, long long total) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
    if (s < 1.0 && !st->shown) return;
    const bool end = done >= total;
    if (!terminal && !end && s - st->last_line < 10) return;
    st->last_line = s;
    const double f = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1;
    char bar[31];
    for (int i = 0; i < 30; ++i) bar[i] = i < static_cast<int>(f * 30) ? '#' : '.';
    bar[30] = '\0';
    char left[48] = "";
    if (done > 0 && !end) std::snprintf(left, sizeof left, ", about %.0f s left", s / f - s);
    std::fprintf(stderr, "%stilesim run: [%s] %3.0f %% (%lld of %lld workgroups, %.0f s%s)%s", terminal ? "\r" : "", bar,
                 100 * f, done, total, s, left, terminal && !end ? "\033[K" : "\n");
    std::fflush(stderr);
    st->shown = true;
  };
}

}  // namespace

host_options take_host_options(std::vector<std::string>& args) {
  host_options h;
  if (const std::optional<std::string> j = take_text_option(args, "jobs")) {
    const std::int64_t v = parse_int(*j, "option --jobs");
    if (v < 0 || v > 1024) throw usage_error("option --jobs must be in [0, 1024] (got " + *j + ")");
    h.jobs = static_cast<int>(v);
  }
  if (const std::optional<std::string> w = take_text_option(args, "workgroups")) {
    const std::size_t colon = w->find(':');
    if (colon == std::string::npos)
      throw usage_error("option --workgroups: '" + *w + "' is not A:B (positions A .. B-1 of the run order)");
    const std::int64_t a = parse_int(w->substr(0, colon), "option --workgroups"),
                       b = parse_int(w->substr(colon + 1), "option --workgroups");
    if (a < 0 || b <= a) throw usage_error("option --workgroups: '" + *w + "' needs 0 <= A < B");
    h.workgroups = std::make_pair(a, b);
  }
  if (const std::optional<std::string> k = take_text_option(args, "sample")) {
    h.sample = parse_int(*k, "option --sample");
    if (h.sample < 1) throw usage_error("option --sample must be >= 1 (got " + *k + ")");
    if (h.workgroups) throw usage_error("option --sample: not with --workgroups (a sample covers the whole grid)");
  }
  h.progress = take_flag(args, "progress");
  return h;
}

std::string host_options_help() {
  return "  --jobs N     CPU threads that simulate workgroups, 0 (the default): one per core; the output is the\n"
         "               same for every N (--threads is the GPU's threads per workgroup)\n"
         "  --workgroups A:B  simulate positions A .. B-1 of the run order (the workgroups that share an SM, set\n"
         "               by set; a set belongs to the slice holding its first workgroup) and print a partial\n"
         "               report (JSON) for `tilesim merge`, which joins the slices into this command's report\n"
         "  --sample K   price about K workgroups (whole SM sets, every behaviour: the GEMM's edge and interior\n"
         "               tiles) and print the grid's report extrapolated from them, with a line giving the 95 %\n"
         "               error of the totals; the result is checked on what the sampled workgroups wrote\n"
         "  --progress   a progress line on stderr also when stderr is not a terminal (on a terminal it appears\n"
         "               once a run has taken a second)\n";
}

sim::simulate_options simulate_options_for(const host_options& h, int grid, int registers,
                                           std::function<int(int)> behaviour) {
  sim::simulate_options o;
  o.jobs = h.jobs;
  o.sample = h.sample;
  o.behaviour = std::move(behaviour);
  o.registers_per_thread = registers;
  if (h.workgroups) {
    if (h.workgroups->second > grid)
      throw usage_error("option --workgroups: " + std::to_string(h.workgroups->first) + ":" +
                        std::to_string(h.workgroups->second) + " lies outside the grid's " + std::to_string(grid) +
                        " workgroups (positions 0.." + std::to_string(grid - 1) + ")");
    o.first = h.workgroups->first;
    o.last = h.workgroups->second;
  }
  o.progress = progress_reporter(h.progress);
  return o;
}

std::string command_line(const std::string& program, const std::vector<option_spec>& specs, const options& o) {
  std::string s = "run " + program;
  for (const option_spec& spec : specs)
    s += " --" + spec.name + " " + (spec.is_word() ? o.word(spec.name) : std::to_string(o.integer(spec.name)));
  return s;
}

std::string header_of(const run_description& d, const result_check& c) {
  return d.program_line + "\nresult: " + (c.exact && c.checked == c.elements ? d.right : d.wrong) + " (" +
         std::to_string(c.elements) + " elements)\n";
}

int print_simulation(const sim::arch_table& arch, const sim::launch& l, int registers, const sim::simulation& s,
                     const run_description& d, const result_check& c, bool json, const std::optional<std::string>& svg,
                     const host_options& h) {
  if (s.sample) {  // checked: what the sampled workgroups wrote
    if (json) {
      if (svg) {
        if (!s.report.has_worst_lds) throw usage_error("--svg: the run made no LDS instruction to draw");
        write_file_replacing(*svg, sim::bank_heat_map_svg(arch, s.report.worst_lds), "--svg");
      }
      std::cout << sim::to_json(s.report, *s.sample);
      return c.exact ? 0 : 1;
    }
    const std::string header = d.program_line + "\nresult: " + (c.exact ? d.right : d.wrong) + " on the " +
                               std::to_string(c.checked) + " elements the sampled workgroups wrote (of " +
                               std::to_string(c.elements) + ")\n" + sim::describe(*s.sample) + "\n";
    return print_run_report(arch, s.report, c.exact, header, false, svg);
  }
  if (!h.workgroups) return print_run_report(arch, s.report, c.exact, header_of(d, c), json, svg);
  if (svg) throw usage_error("--svg: not with --workgroups (tilesim merge --svg FILE draws the merged run's map)");
  const sim::partial_report p = sim::make_partial(
      arch, l, registers, s,
      {{"command", d.command}, {"program", d.program_line}, {"result_right", d.right}, {"result_wrong", d.wrong},
       {"elements", std::to_string(c.elements)}, {"checked", std::to_string(c.checked)}, {"exact", c.exact ? "yes" : "no"}});
  std::cout << sim::to_json(p);
  return c.exact ? 0 : 1;
}

}  // namespace tilesim::cli
