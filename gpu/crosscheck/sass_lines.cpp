// tilesim/gpu/crosscheck/sass_lines.cpp: program lines of SASS instructions from nvdisasm -g -gi (sass_lines.hpp).
#include "gpu/crosscheck/sass_lines.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>

#include "gpu/runtime/device_error.hpp"

namespace tilesim::gpu {

namespace {

// tilesim's own machinery: descriptors and windows (spec/), the simulator's context (sim/engine/), the kernel
// side (gpu/): not a program's line.
bool machinery(const std::string& path) {
  for (const char* part : {"/spec/", "/sim/engine/", "/gpu/"})
    if (path.find(part) != std::string::npos) return true;
  return path.rfind("spec/", 0) == 0 || path.rfind("sim/engine/", 0) == 0 || path.rfind("gpu/", 0) == 0;
}

std::string basename_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string normalized_sass(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

std::vector<sass_function> read_sass_lines(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw device_error("cannot read the SASS listing \"" + path + "\" (nvdisasm -g -gi of a -lineinfo build)");
  static const std::regex section(R"(^\.text\.([A-Za-z0-9_$.]+):)");
  static const std::regex position(R"re(//## File "([^"]*)", line (\d+))re");
  static const std::regex instruction(R"(^\s*/\*([0-9a-fA-F]{4,})\*/\s+(.*\S)\s*$)");
  std::vector<sass_function> out;
  std::string chain_line;  // the innermost program position of the chain above the next instruction
  bool chain_open = false, in_text = false;
  std::string line;
  std::smatch m;
  while (std::getline(f, line)) {
    if (std::regex_search(line, m, section)) {
      out.push_back({m[1].str(), {}});
      chain_open = false;
      in_text = true;
      continue;
    }
    if (line.find(".section") != std::string::npos && line.find("//") == std::string::npos) in_text = false;
    if (!in_text) continue;
    if (std::regex_search(line, m, position)) {
      if (!chain_open) chain_line.clear();  // a new chain starts: innermost first
      chain_open = true;
      if (chain_line.empty() && !machinery(m[1].str())) chain_line = basename_of(m[1].str()) + ":" + m[2].str();
      continue;
    }
    if (std::regex_match(line, m, instruction)) {
      chain_open = false;
      const std::string text = m[2].str();
      if (text[0] == '.') continue;  // data (.byte, .word), not code
      out.back().instructions.push_back({std::strtoull(m[1].str().c_str(), nullptr, 16), normalized_sass(text), chain_line});
    }
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const sass_function& s) { return s.instructions.empty(); }), out.end());
  if (out.empty()) throw device_error("the SASS listing \"" + path + "\" holds no function (expected nvdisasm -g -gi output)");
  return out;
}

void attach_source_lines(std::vector<sass_row>& rows, const std::vector<sass_function>& functions,
                         const std::string& origin) {
  if (rows.empty()) return;
  std::uint64_t base = rows.front().address;
  for (const sass_row& r : rows) base = std::min(base, r.address);
  std::string first_difference;
  for (const sass_function& fn : functions) {
    std::map<std::uint64_t, const sass_instruction*> at;
    for (const sass_instruction& i : fn.instructions) at[i.offset] = &i;
    std::string difference;
    for (const sass_row& r : rows) {
      if (r.cls.space == sass_space::none) continue;
      const auto it = at.find(r.address - base);
      const std::string want = normalized_sass(r.sass);
      if (it == at.end() || it->second->text != want) {
        char offset[32];
        std::snprintf(offset, sizeof offset, "0x%04llx", static_cast<unsigned long long>(r.address - base));
        difference = fn.name + " at " + offset + " has \"" + (it == at.end() ? std::string("nothing") : it->second->text) +
                     "\" where the page has \"" + want + "\"";
        break;
      }
    }
    if (!difference.empty()) {
      if (first_difference.empty()) first_difference = difference;
      continue;
    }
    for (sass_row& r : rows) {
      const auto it = at.find(r.address - base);
      r.program_line = it == at.end() ? "" : it->second->program_line;
    }
    return;
  }
  throw device_error(origin + " is not the profiled kernel's build: " + first_difference);
}

}  // namespace tilesim::gpu
