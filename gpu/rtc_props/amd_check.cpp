// tilesim/gpu/rtc_props/amd_check.cpp: counting a kernel's LDS instructions in AMD assembly (amd_check.hpp).
#include "gpu/rtc_props/amd_check.hpp"

#include <regex>
#include <sstream>

namespace tilesim::gpu::props {

amd_lds_use amd_lds_instructions(const std::string& assembly, const std::string& name) {
  amd_lds_use u;
  const std::size_t begin = assembly.find("\n" + name + ":");
  if (begin == std::string::npos) return u;
  u.found = true;
  const std::size_t end = assembly.find(".Lfunc_end", begin);
  std::stringstream body(assembly.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
  static const std::regex ds(R"(^\s*ds_(read|write)(2st64|2)?_([biu])(8|16|32|64|96|128)\b(.*)$)");
  static const std::regex off0(R"(offset0:(\d+))"), off1(R"(offset1:(\d+))");
  for (std::string line; std::getline(body, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, ds)) continue;
    const int kind = m[1] == "write" ? 1 : 0;
    int bytes = std::stoi(m[4]) / 8;
    if (m[2].matched) {
      const std::string operands = m[5];
      std::smatch a, b;
      const long o0 = std::regex_search(operands, a, off0) ? std::stol(a[1]) : 0;
      const long o1 = std::regex_search(operands, b, off1) ? std::stol(b[1]) : 0;
      if (m[2] == "2st64" || o1 != o0 + 1) {
        u.problems.push_back(line + ": a pair with non-adjacent offsets");
        continue;
      }
      bytes *= 2;
    }
    ++u.counts[{kind, bytes}];
  }
  return u;
}

}  // namespace tilesim::gpu::props
