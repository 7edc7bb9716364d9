// tilesim/sim/report/program_report_output.cpp: a program report as JSON, an LDS instruction as an SVG heat map.
#include <cstdio>

#include "sim/models/lds_banks.hpp"
#include "sim/report/program_report.hpp"
#include "util/json.hpp"

namespace tilesim::sim {

namespace {

// Text as a JSON string's contents (json_quote without its quotes): escape("a\"b") == "a\\\"b".
std::string escape(const std::string& s) {
  const std::string quoted = util::json_quote(s);
  return quoted.substr(1, quoted.size() - 2);
}

// Text as XML character data or attribute value: xml_escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;".
std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::string to_json(const program_report& r) {
  // The schema field first: docs/schema/program-report.schema.json (version 1); a change of meaning bumps it.
  std::string s = "{\n  \"schema\": \"tilesim.program-report/1\",\n  \"arch\": \"" + escape(r.arch) + "\",\n  \"workgroups\": " + std::to_string(r.workgroups) +
                  ",\n  \"waves_per_workgroup\": " + std::to_string(r.waves_per_workgroup) + ",\n  \"instructions\": [";
  for (std::size_t k = 0; k < r.instructions.size(); ++k) {
    const instruction_report& i = r.instructions[k];
    const std::string space = i.space == memory_space::lds ? "lds" : "global";
    const std::string kind = i.kind == access_kind::load ? "load" : "store";
    s += std::string(k ? "," : "") + "\n    {\"label\": \"" + escape(i.label) + "\", \"space\": \"" + space +
         "\", \"kind\": \"" + kind + "\", \"width\": " + std::to_string(i.width) +
         ", \"interval\": " + std::to_string(i.interval) + ", \"position\": " + std::to_string(i.position) +
         ", \"instances\": " + std::to_string(i.instances) + ", \"wavefronts\": " + std::to_string(i.wavefronts) +
         ", \"ideal_wavefronts\": " + std::to_string(i.ideal) + ", \"excess_wavefronts\": " + std::to_string(i.excess) +
         ", \"max_ways\": " + std::to_string(i.max_ways) + ", \"wavefronts_per_instruction\": " +
         number(i.instances ? static_cast<double>(i.wavefronts) / i.instances : 0) + ", \"sectors\": " + std::to_string(i.sectors) +
         ", \"ideal_sectors\": " + std::to_string(i.ideal_sectors) + ", \"l1_hit_sectors\": " +
         std::to_string(i.l1_hit_sectors) + ", \"alu_fma\": " + std::to_string(i.alu.fma) + ", \"alu_integer\": " +
         std::to_string(i.alu.integer) + ", \"alu_shuffle\": " + std::to_string(i.alu.shuffle) + ", \"alu_matrix\": " +
         std::to_string(i.alu.matrix) + ", \"cycles\": " + number(i.cycles) + ", \"issue_cycles\": " +
         number(i.issue_cycles) + ", \"lds_cycles\": " + number(i.lds_cycles) + ", \"global_cycles\": " +
         number(i.global_cycles) + "}";
  }
  s += "\n  ],\n  \"barriers\": [";
  for (std::size_t k = 0; k < r.barriers.size(); ++k) {
    const barrier_report& b = r.barriers[k];
    s += std::string(k ? "," : "") + "\n    {\"label\": \"" + escape(b.label) + "\", \"interval\": " +
         std::to_string(b.interval) + ", \"instances\": " + std::to_string(b.instances) + ", \"wait\": " +
         number(b.wait) + ", \"issue_cycles\": " + number(b.issue_cycles) + ", \"alu_fma\": " +
         std::to_string(b.alu.fma) + ", \"alu_integer\": " + std::to_string(b.alu.integer) + "}";
  }
  s += "\n  ],\n  \"totals\": {\"wavefronts\": " + std::to_string(r.wavefronts) + ", \"ideal_wavefronts\": " +
       std::to_string(r.ideal) + ", \"excess_wavefronts\": " + std::to_string(r.excess) + ", \"sectors\": " +
       std::to_string(r.sectors) + ", \"ideal_sectors\": " + std::to_string(r.ideal_sectors) +
       ", \"cycles_per_workgroup\": " + number(r.cycles_per_workgroup) + ", \"slowest_workgroup_cycles\": " +
       number(r.slowest_workgroup_cycles) + "},\n  \"occupancy\": {\"resident_workgroups\": " +
       std::to_string(r.resident_workgroups) + ", \"active_processors\": " + std::to_string(r.active_processors) +
       ", \"limited_by\": \"" + escape(r.resident_limit) + "\"},\n  \"busy\": {\"issue\": " + number(r.issue_busy) +
       ", \"lds\": " + number(r.lds_busy) + ", \"global_load\": " + number(r.global_load_busy) +
       ", \"global_store\": " + number(r.global_store_busy) + "},\n  \"verdict\": \"" + escape(r.verdict) +
       "\",\n  \"findings\": [";
  for (std::size_t k = 0; k < r.findings.size(); ++k) s += std::string(k ? ", " : "") + "\"" + escape(r.findings[k]) + "\"";
  s += "],\n  \"finding_count\": " + std::to_string(r.finding_count) + "\n}\n";
  return s;
}

std::string bank_heat_map_svg(const arch_table& arch, const wave_access& access) {
  const lds_detail d = lds_instruction_detail(arch, access);
  const int cell = 22, left = 70, top = 60;
  const int banks = d.banks, phases = static_cast<int>(d.phases.size());
  const int width = left + banks * cell + 20, height = top + phases * cell + 40;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" font-family=\"monospace\" font-size=\"10\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"4\" y=\"16\" font-size=\"12\">" + xml_escape(access.label) + ": " + std::string(arch.name) + " " +
       (access.kind == access_kind::load ? "load" : "store") + " " + std::to_string(access.width) + " B/lane; " +
       std::to_string(d.cost.wavefronts) + " wavefronts (ideal " + std::to_string(d.cost.ideal) + "), " +
       std::to_string(d.cost.max_ways) + "-way</text>\n";
  s += "<text x=\"4\" y=\"32\">cell = distinct 4-byte words the bank serves in the phase</text>\n";
  for (int b = 0; b < banks; ++b)
    s += "<text x=\"" + std::to_string(left + b * cell + 4) + "\" y=\"" + std::to_string(top - 6) + "\">" +
         std::to_string(b) + "</text>\n";
  for (int p = 0; p < phases; ++p) {
    const lds_phase_detail& ph = d.phases[static_cast<std::size_t>(p)];
    s += "<text x=\"4\" y=\"" + std::to_string(top + p * cell + 15) + "\">phase " + std::to_string(p) + "</text>\n";
    for (int b = 0; b < banks; ++b) {
      const int n = b < static_cast<int>(ph.words.size()) ? static_cast<int>(ph.words[static_cast<std::size_t>(b)].size()) : 0;
      const char* fill = n == 0 ? "#ffffff" : n == 1 ? "#b7e4a7" : n == 2 ? "#ffe08a" : n <= 4 ? "#ffa95e" : "#e8505b";
      s += "<rect x=\"" + std::to_string(left + b * cell) + "\" y=\"" + std::to_string(top + p * cell) + "\" width=\"" +
           std::to_string(cell) + "\" height=\"" + std::to_string(cell) + "\" fill=\"" + fill +
           "\" stroke=\"#999\"/>\n";
      if (n > 0)
        s += "<text x=\"" + std::to_string(left + b * cell + 7) + "\" y=\"" + std::to_string(top + p * cell + 15) + "\">" +
             std::to_string(n) + "</text>\n";
    }
  }
  s += "</svg>\n";
  return s;
}

}  // namespace tilesim::sim
