// tilesim/gpu/amd/lds_widths.test.cpp: the LDS instruction widths in hipcc's AMD assembly, held to the simulator.
//
// DEFINITION. gpu/amd/meson.build compiles gpu/kernels.cu and gpu/amd/lds_width_kernels.hip with hipcc for
// gfx90a and gfx940 and keeps the device assembly (-save-temps: the very text assembled into the objects).
// This test reads it (paths in TILESIM_AMD_KERNELS_ASM and TILESIM_AMD_PINNED_ASM, ':'-separated), splits
// it into kernels (the .amdhsa_kernel symbols, demangled to "copy_u16_kernel"), and collects each
// kernel's LDS instructions with their widths: ds_read_b128 is a 16-byte load, ds_write_b16 a 2-byte store,
// ds_read_u16 a 2-byte load, ds_read2_b64 two 8-byte loads in one instruction. It runs the same programs on
// the simulator (wave 64: the gfx942 table's wave size; 256 threads) and collects the (load|store, bytes)
// of every LDS instruction the simulator priced. The example kernels (morton_f32_kernel, conv_f32_kernel)
// take layout, staging and mode at run time, so their simulation is their example's gfx942 (wave 64) cases
// (examples::morton_cases(), conv_cases()), not one parameter set. Every kernels.cu kernel must be one this
// test knows; one whose program uses LDS (the simulator prices an LDS access somewhere in its range) must
// hold ds_ instructions (none at all means the parser or the build is broken); one whose program uses no
// LDS (conv: the simulator prices no LDS access) must hold no ds_ memory instruction. Then three checks,
// from weakest to strongest:
//   1. default point, kernels.cu: every width the simulator priced at the program's default parameters
//      (copy fp16 and fp32: copy_params{}; gemm fp32: gemm_params{}; lds sweep u32: 32 x 32, vector 4;
//      morton fp32 and conv fp32: the union over the example's gfx942 cases) is in the kernel; the kernel's
//      other widths are listed (MESSAGE). The kernels take their parameters at run time, so
//      device_buffer's switch gives them an instruction for every width a vector may have: this alone
//      cannot fail on an extra width.
//   2. parameter range, kernels.cu: every width the simulator prices over the program's range (clean runs
//      of: copy and the sweep, vector 1, 2, 4, 8 x every LDS layout, ck_xor in both unmerge orders, x
//      every read order, gemm_operand at lane rows 32 and 16 on the tile it needs; gemm, vector x layout;
//      morton, the gfx942 cases x every staging; conv, the gfx942 cases) has an instruction in the kernel,
//      and every LDS instruction of the kernel has such a width or the element's width (device_buffer's
//      element-wise fallback for misaligned or odd-sized vectors, never executed where the simulator runs
//      clean; named by MESSAGE where the range has no such width, as for lds_sweep_u32_kernel's 4-byte
//      instructions). A program with no LDS width in its range is held by the no-ds_ check above instead
//      (no LDS buffer, so no fallback: every ds_ memory instruction of its kernel fails there).
//   3. pinned points, lds_width_kernels.hip: per point of gpu/amd/lds_width_points.hpp, the simulator prices
//      exactly the point's widths and the point's kernel (the same program, constant parameters, LDS buffers
//      pinned to those widths) holds LDS instructions of exactly those widths and no others; so the backend
//      selected one ds instruction of the priced width for each program access (no split, no ds_read2 pair).
// A ds_read2/ds_write2 counts as one access of its combined width only where its two offsets are adjacent and
// the simulator priced that combined width; otherwise it is a mismatch naming the instruction (the simulator
// prices each lane access as its own instruction, and a pair has other bank behaviour).
//
// WORKED EXAMPLE. copy_u16_kernel on gfx940: LDS loads ds_read_u16, ds_read_b32, ds_read_b64,
// ds_read_b128 (2, 4, 8, 16 bytes), stores ds_write_b16 ... ds_write_b128; the simulator prices loads and
// stores of 16 bytes at copy_params{} (check 1 passes, 2/4/8 are listed) and 2, 4, 8, 16 over vector 1-8
// (check 2 passes). lds_width_point_kernel<0> holds only ds_read_b128 and ds_write_b128 (check 3).
// morton_f32_kernel: the simulator prices 4-byte LDS loads and stores (one texel per lane, staged in LDS Z
// order in the gfx942 cases), which it must hold; conv_f32_kernel holds no ds_read or ds_write at all.
//
// INVARIANTS: a missing variable, file, arch or kernel fails with its name; every failure names the kernel,
// the arch, the instruction (with its assembly line) and the widths on both sides.
#include <doctest/doctest.h>

#include <cxxabi.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "examples/conv/conv_variants.hpp"
#include "examples/morton/morton_variants.hpp"
#include "gpu/amd/lds_width_points.hpp"
#include "sim/arch/arch.hpp"
#include "sim/programs/copy_run.hpp"
#include "sim/programs/gemm_tile_run.hpp"
#include "sim/programs/lds_sweep.hpp"

using namespace tilesim;
using namespace tilesim::programs;
using tilesim::gpu::amd::lds_width_point;
using tilesim::gpu::amd::lds_width_points;
using tilesim::gpu::amd::lds_width_program;
using sim::access_kind;

namespace {

// ---------------------------------------------------------------------------------------------------------
// Widths.

struct lds_width {
  access_kind kind = access_kind::load;
  int bytes = 0;
  auto operator<=>(const lds_width&) const = default;
};
using width_set = std::set<lds_width>;

// "loads {4, 16} bytes, stores {16} bytes"; "no LDS access" when empty.
std::string describe(const width_set& s) {
  std::string out;
  for (access_kind k : {access_kind::load, access_kind::store}) {
    std::string list;
    for (const lds_width& w : s)
      if (w.kind == k) list += (list.empty() ? "" : ", ") + std::to_string(w.bytes);
    if (list.empty()) continue;
    out += (out.empty() ? "" : ", ") + std::string(sim::kind_name(k)) + "s {" + list + "} bytes";
  }
  return out.empty() ? "no LDS access" : out;
}

// The gfx9 mnemonic of a single access: mnemonic_of({load, 16}) == "ds_read_b128".
std::string mnemonic_of(const lds_width& w) {
  const std::string op = w.kind == access_kind::load ? "ds_read_" : "ds_write_";
  if (w.kind == access_kind::load && w.bytes == 1) return "ds_read_u8";
  if (w.kind == access_kind::load && w.bytes == 2) return "ds_read_u16";
  return op + "b" + std::to_string(8 * w.bytes);
}

// ---------------------------------------------------------------------------------------------------------
// The assembly.

enum class ds_shape { single, pair, not_memory, other };

// One ds_ instruction of a kernel.
struct lds_instruction {
  int line = 0;                 // 1-based line in the assembly file
  std::string text;             // "ds_read2_b64 v[0:3], v4 offset0:2 offset1:3"
  std::string mnemonic;         // "ds_read2_b64"
  ds_shape shape = ds_shape::other;
  access_kind kind = access_kind::load;
  int bytes = 0;                // per access: 8 for ds_read2_b64
  bool adjacent = false;        // pair: offset1 == offset0 + 1 (one contiguous 2 * bytes), never for st64
};

struct kernel_asm {
  std::string file, arch, symbol, name;  // name: "copy_u16_kernel"
  std::vector<lds_instruction> lds;
};

// Bytes of a width token: b8/u8/i8 -> 1, b16/u16/i16 -> 2, b32 -> 4, b64 -> 8, b96 -> 12, b128 -> 16; else 0.
int token_bytes(const std::string& t) {
  static const std::map<std::string, int> bytes = {{"b8", 1},  {"u8", 1},  {"i8", 1},  {"b16", 2},
                                                   {"u16", 2}, {"i16", 2}, {"b32", 4}, {"b64", 8},
                                                   {"b96", 12}, {"b128", 16}};
  const auto it = bytes.find(t);
  return it == bytes.end() ? 0 : it->second;
}

// The value of `key` ("offset0:") in the operands, 0 when absent: offset0:2 -> 2.
long operand_value(const std::string& operands, const std::string& key) {
  const auto at = operands.find(key);
  return at == std::string::npos ? 0 : std::strtol(operands.c_str() + at + key.size(), nullptr, 0);
}

// Decodes a ds_ mnemonic (gfx9 names, and gfx11's ds_load/ds_store/2addr spellings):
// ds_read_b128 -> single load 16; ds_write2st64_b32 -> pair store 4; ds_bpermute_b32 -> not memory;
// ds_add_u32 -> other (an atomic: neither a plain load nor a store).
lds_instruction decode(const std::string& mnemonic, const std::string& operands) {
  lds_instruction in;
  in.mnemonic = mnemonic;
  std::vector<std::string> t;
  std::stringstream ss(mnemonic);
  for (std::string part; std::getline(ss, part, '_');) t.push_back(part);
  static const std::set<std::string> no_memory = {"ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32", "ds_nop"};
  if (no_memory.count(mnemonic)) {
    in.shape = ds_shape::not_memory;
    return in;
  }
  if (t.size() < 3) return in;
  const std::string& op = t[1];
  bool pair = op == "read2" || op == "write2" || op == "read2st64" || op == "write2st64";
  bool st64 = op == "read2st64" || op == "write2st64";
  const bool load = op == "read" || op == "load" || op == "read2" || op == "read2st64";
  const bool store = op == "write" || op == "store" || op == "write2" || op == "write2st64";
  if (!load && !store) return in;  // atomics, append/consume, gws, ...
  int bytes = 0;
  for (std::size_t i = 2; i < t.size(); ++i) {
    if (t[i] == "2addr") pair = true;
    if (t[i] == "stride64") st64 = true;
    if (t[i] == "addtid") return in;  // no per-lane address: not the model's kind of access
    if (!bytes) bytes = token_bytes(t[i]);
  }
  if (!bytes) return in;
  in.shape = pair ? ds_shape::pair : ds_shape::single;
  in.kind = load ? access_kind::load : access_kind::store;
  in.bytes = bytes;
  in.adjacent = pair && !st64 && operand_value(operands, "offset1:") == operand_value(operands, "offset0:") + 1;
  return in;
}

// "void tilesim::gpu::copy_u16_kernel(tilesim::programs::copy_params, ...)" -> "copy_u16_kernel".
std::string short_name(const std::string& symbol) {
  int status = 0;
  char* d = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : symbol;
  std::free(d);
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  int depth = 0;
  std::size_t name_start = 0, end = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth == 0 && c == '(') {
      end = i;
      break;
    }
    if (depth == 0 && c == ':' && i + 1 < s.size() && s[i + 1] == ':') name_start = i + 2;
  }
  return s.substr(name_start, end - name_start);
}

// Trimmed copy: trim("\tds_read_b32 v1, v2 ") == "ds_read_b32 v1, v2".
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// The kernels of one device assembly file, with their LDS instructions, in file order.
std::vector<kernel_asm> parse_assembly(const std::string& path) {
  std::ifstream f(path);
  REQUIRE_MESSAGE(f.good(), "cannot read the AMD device assembly file " << path);
  std::string arch;
  std::set<std::string> kernel_symbols;
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) lines.push_back(line);
  for (const std::string& raw : lines) {
    const std::string line = trim(raw);
    const std::string target = ".amdgcn_target \"";
    if (line.rfind(target, 0) == 0) {
      // ".amdgcn_target "amdgcn-amd-amdhsa--gfx940"" (possibly ":sramecc+:xnack-" after the processor)
      std::string id = line.substr(target.size(), line.find('"', target.size()) - target.size());
      id = id.substr(id.rfind('-') + 1);
      arch = id.substr(0, id.find(':'));
    }
    if (line.rfind(".amdhsa_kernel ", 0) == 0) kernel_symbols.insert(trim(line.substr(15)));
  }
  REQUIRE_MESSAGE(!arch.empty(), path << " has no .amdgcn_target line: not an AMD device assembly file");
  REQUIRE_MESSAGE(!kernel_symbols.empty(), path << " (" << arch << ") has no .amdhsa_kernel: no kernels");
  std::vector<kernel_asm> kernels;
  kernel_asm* current = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& raw = lines[i];
    if (!raw.empty() && raw[0] != '\t' && raw[0] != ' ') {  // a label (or a directive in column 0)
      const std::string label = raw.substr(0, raw.find(':'));
      if (raw.find(':') != std::string::npos && kernel_symbols.count(label)) {
        kernels.push_back({path, arch, label, short_name(label), {}});
        current = &kernels.back();
        continue;
      }
      if (raw.rfind(".Lfunc_end", 0) == 0) current = nullptr;
      continue;
    }
    if (!current) continue;
    std::string line = trim(raw);
    if (line.rfind("ds_", 0) != 0) continue;
    line = trim(line.substr(0, line.find(';')));
    const std::string mnemonic = line.substr(0, line.find_first_of(" \t"));
    lds_instruction in = decode(mnemonic, line.substr(mnemonic.size()));
    in.line = static_cast<int>(i + 1);
    in.text = line;
    current->lds.push_back(in);
  }
  return kernels;
}

// The assembly files named by environment variable `var` (':'-separated), parsed.
std::vector<kernel_asm> kernels_from(const char* var) {
  const char* value = std::getenv(var);
  REQUIRE_MESSAGE(value != nullptr, std::string(var) << " is not set: it names the device assembly files (gpu/amd/meson.build "
                                           "sets it for `meson test amd-lds-widths`)");
  std::vector<kernel_asm> all;
  std::stringstream ss(value);
  for (std::string path; std::getline(ss, path, ':');)
    if (!path.empty())
      for (kernel_asm& k : parse_assembly(path)) all.push_back(std::move(k));
  return all;
}

// Parsed once per variable: the files are tens of MB.
const std::vector<kernel_asm>& cached_kernels(const char* var) {
  static std::map<std::string, std::vector<kernel_asm>> cache;
  auto it = cache.find(var);
  if (it == cache.end()) it = cache.emplace(var, kernels_from(var)).first;
  return it->second;
}

// The kernel named `name` in `arch`, or nullptr.
const kernel_asm* find_kernel(const std::vector<kernel_asm>& all, const std::string& arch, const std::string& name) {
  for (const kernel_asm& k : all)
    if (k.arch == arch && k.name == name) return &k;
  return nullptr;
}

// "copy_u16_kernel (gfx940, line 1234 of .../kernels-hip-amdgcn-amd-amdhsa-gfx940.s)".
std::string where(const kernel_asm& k, int line = 0) {
  return k.name + " (" + k.arch + (line ? ", line " + std::to_string(line) + " of " : ", ") + k.file + ")";
}

// ---------------------------------------------------------------------------------------------------------
// Kernel widths against simulator widths.

// The width the simulator would have to have priced for `in`, given what it priced (`sim`), or a reason why
// the instruction has none: a pair is its combined width only where adjacent and priced so.
std::optional<lds_width> priced_width(const lds_instruction& in, const width_set& sim, std::string& why) {
  if (in.shape == ds_shape::single) return lds_width{in.kind, in.bytes};
  if (in.shape == ds_shape::pair) {
    const lds_width combined{in.kind, 2 * in.bytes};
    if (in.adjacent && sim.count(combined)) return combined;
    why = "is two " + std::to_string(in.bytes) + "-byte LDS " + sim::kind_name(in.kind) + "s in one instruction (" +
          (in.adjacent ? "adjacent: " + std::to_string(2 * in.bytes) +
                             " contiguous bytes per lane, which count as one access of that width only where the "
                             "simulator priced that width"
                       : std::string("not adjacent: the simulator prices each lane access as its own instruction "
                                     "and has no model of a pair")) +
          ")";
    return std::nullopt;
  }
  why = "is an LDS instruction the simulator's model has no kind for (not a plain load or store)";
  return std::nullopt;
}

// The kernel's LDS widths as the simulator would price them (pairs per priced_width; others left out).
width_set kernel_widths(const kernel_asm& k, const width_set& sim) {
  width_set s;
  std::string why;
  for (const lds_instruction& in : k.lds)
    if (in.shape != ds_shape::not_memory)
      if (const auto w = priced_width(in, sim, why)) s.insert(*w);
  return s;
}

// Every width in `sim` has an instruction in the kernel; one message per missing width.
std::vector<std::string> missing_widths(const kernel_asm& k, const width_set& sim, const std::string& point) {
  std::vector<std::string> out;
  const width_set have = kernel_widths(k, sim);
  for (const lds_width& w : sim)
    if (!have.count(w))
      out.push_back(where(k) + " has no " + std::to_string(w.bytes) + "-byte LDS " + sim::kind_name(w.kind) + " (" +
                    mnemonic_of(w) + "): the simulator priced " + describe(sim) + " at " + point +
                    "; the kernel has " + describe(have));
  return out;
}

// Every LDS instruction of the kernel has a width in `sim`; one message per instruction that has not.
std::vector<std::string> unpriced_instructions(const kernel_asm& k, const width_set& sim, const std::string& point) {
  std::vector<std::string> out;
  for (const lds_instruction& in : k.lds) {
    if (in.shape == ds_shape::not_memory) continue;
    std::string why;
    const auto w = priced_width(in, sim, why);
    if (w && sim.count(*w)) continue;
    if (w) why = "moves " + std::to_string(w->bytes) + " bytes per lane";
    out.push_back(where(k, in.line) + ": " + in.text + " " + why + "; the simulator priced " + describe(sim) +
                  " at " + point);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The simulator.

// The wave size of the arch the kernels stand for (gfx942: clang 15 knows gfx940, the same CDNA3 wave).
int amd_wave_size() { return sim::arch_named("gfx942").wave_size; }

// The (kind, width) of every LDS instruction of every wave of a run.
width_set lds_widths(const sim::run_result& r) {
  width_set s;
  for (const sim::workgroup_record& g : r.workgroups)
    for (const sim::wave_record& w : g.waves)
      for (const sim::wave_instruction& i : w.instructions)
        if (i.access.space == sim::memory_space::lds) s.insert({i.access.kind, i.access.width});
  return s;
}

// One workgroup of 256 threads at wave 64.
template <class T>
sim::run_result simulate_copy(const copy_params& p) {
  const sim::launch l{.grid = 1, .block = 256, .wave_size = amd_wave_size()};
  return run_copy<T>(l, p, copy_input<T>(copy_elements(l, p)));
}

// One launch of gemm_params' problem (grid = its block tiles) with 256 threads at wave 64.
sim::run_result simulate_gemm(const gemm_params& p) {
  const sim::launch l = gemm_launch(p, 256, amd_wave_size());
  return run_gemm(l, p, gemm_input(p.m * p.k, 1), gemm_input(p.n * p.k, 2));
}

// What the test knows of each program: its name, its kernels.cu kernel, the bytes
// of its element (device_buffer's element-wise fallback moves that many per instruction).
struct program_info {
  lds_width_program id;
  const char* name;    // "copy fp16"
  const char* kernel;  // "copy_u16_kernel" (one kernel per program; a launch is timed or not at run time)
  int element_bytes;
};
const program_info programs_known[] = {
    {lds_width_program::copy_fp16, "copy fp16", "copy_u16_kernel", 2},
    {lds_width_program::copy_fp32, "copy fp32", "copy_f32_kernel", 4},
    {lds_width_program::gemm_fp32, "gemm fp32", "gemm_f32_kernel", 4},
    {lds_width_program::lds_sweep_u32, "lds sweep u32", "lds_sweep_u32_kernel", 4},
    {lds_width_program::morton_f32, "morton fp32", "morton_f32_kernel", 4},
    {lds_width_program::conv_f32, "conv fp32", "conv_f32_kernel", 4},
};

// The program of a kernels.cu kernel by name: copy_u16_kernel -> copy fp16; nullptr for other names.
const program_info* program_of(const std::string& kernel) {
  for (const program_info& p : programs_known)
    if (kernel == p.kernel) return &p;
  return nullptr;
}

// The program's info by id.
const program_info& info(lds_width_program id) {
  for (const program_info& p : programs_known)
    if (p.id == id) return p;
  throw std::logic_error("a program without an entry in programs_known");
}

// lds_sweep<std::uint32_t, 4> (kernels.cu's lds_sweep_u32_kernel) on one workgroup of 256 threads at wave 64,
// input element i = i.
sim::run_result simulate_lds_sweep(lds_sweep_params p) {
  const sim::launch l{.grid = 1, .block = 256, .wave_size = amd_wave_size()};
  const index_t n = p.tile.rows * p.tile.cols;
  sim::global_memory mem;
  p.tile.input = mem.add<std::uint32_t>("in", copy_input<std::uint32_t>(n));
  p.tile.output = mem.add<std::uint32_t>("out", n, ~std::uint32_t{0});
  return sim::run(l, std::move(mem), [&p](sim::thread_context& ctx) { lds_sweep<std::uint32_t, 4>(ctx, p); });
}

// True for the example programs (morton_f32, conv_f32), which run at their example's cases, not at one params.
bool is_example(lds_width_program program) {
  return program == lds_width_program::morton_f32 || program == lds_width_program::conv_f32;
}

// Runs `program` at the params given for it (the others are ignored); the examples run through example_runs.
sim::run_result simulate(lds_width_program program, const copy_params& c, const gemm_params& g,
                         const lds_sweep_params& s) {
  switch (program) {
    case lds_width_program::copy_fp16: return simulate_copy<std::uint16_t>(c);
    case lds_width_program::copy_fp32: return simulate_copy<float>(c);
    case lds_width_program::gemm_fp32: return simulate_gemm(g);
    case lds_width_program::lds_sweep_u32: return simulate_lds_sweep(s);
    case lds_width_program::morton_f32:
    case lds_width_program::conv_f32: break;
  }
  throw std::logic_error(std::string(info(program).name) + " has no single parameter set: it runs its example's cases");
}

// "direct", "LDS row-major", "LDS Z order": how a morton run stages its texels.
const char* staging_name(examples::texel_staging s) {
  switch (s) {
    case examples::texel_staging::direct: return "direct";
    case examples::texel_staging::lds_row_major: return "LDS row-major";
    case examples::texel_staging::lds_morton: return "LDS Z order";
  }
  return "?";
}

// One simulation of an example program: "morton fp32 case 'row-major, 8x8 reads' (gfx942)" and its run.
struct example_run {
  std::string name;
  std::function<sim::run_result()> run;
};

// The example's gfx942 cases (wave 64, the AMD kernels' wave; launch, image and operands as the example's);
// with `every_staging`, morton's cases at each texel_staging (the cases already cover every texel_layout):
// morton_f32_kernel takes layout and staging at run time. conv has no more: its cases hold every mode.
std::vector<example_run> example_runs(lds_width_program program, bool every_staging) {
  std::vector<example_run> out;
  const std::string gfx942 = "gfx942";
  if (program == lds_width_program::morton_f32) {
    for (const examples::morton_case& c : examples::morton_cases()) {
      if (c.arch != gfx942) continue;
      std::vector<examples::texel_staging> stagings = {c.params.staging};
      if (every_staging)
        stagings = {examples::texel_staging::direct, examples::texel_staging::lds_row_major,
                    examples::texel_staging::lds_morton};
      for (examples::texel_staging staging : stagings) {
        examples::morton_case at = c;
        at.params.staging = staging;
        const std::string suffix = staging == c.params.staging ? "" : std::string(", staged ") + staging_name(staging);
        out.push_back({"morton fp32 case '" + c.name + "' (" + c.arch + suffix + ")", [at] {
                         return examples::run_morton(examples::launch_on(at.arch, at.grid, at.block), at.params,
                                                     examples::morton_image(at.params.height, at.params.width));
                       }});
      }
    }
  } else if (program == lds_width_program::conv_f32) {
    for (const examples::conv_case& c : examples::conv_cases()) {
      if (c.arch != gfx942) continue;
      out.push_back({"conv fp32 case '" + c.name + "' (" + c.arch + ")", [c] {
                       const examples::conv_operands ops = examples::conv_inputs(c.params);
                       return examples::run_conv(examples::launch_on(c.arch, c.grid, c.block), c.params, ops.input,
                                                 ops.weights);
                     }});
    }
  }
  return out;
}

// What the simulator prices at the program's default parameters: copy_params{}, gemm_params{}, for the sweep the
// cross-check's 32 x 32 v4 tile (sweep_u32_params()), for morton and conv the union over the example's gfx942
// cases (example_runs; conv's is empty: it uses no LDS).
const width_set& default_widths(lds_width_program program) {
  static std::map<lds_width_program, width_set> cache;
  if (!cache.count(program)) {
    width_set s;
    if (is_example(program)) {
      const std::vector<example_run> runs = example_runs(program, false);
      REQUIRE_MESSAGE(!runs.empty(), std::string(info(program).name) << ": its example has no gfx942 case");
      for (const example_run& e : runs) {
        const sim::run_result r = e.run();
        REQUIRE_MESSAGE(r.clean(), e.name << " does not run clean");
        const width_set w = lds_widths(r);
        s.insert(w.begin(), w.end());
      }
    } else {
      const sim::run_result r = simulate(program, copy_params{}, gemm_params{}, gpu::amd::sweep_u32_params());
      REQUIRE_MESSAGE(r.clean(), std::string(info(program).name) << " at its default parameters does not run clean");
      s = lds_widths(r);
    }
    cache[program] = s;
  }
  return cache[program];
}

// The tile of the copy (or the sweep) for a read order: copy_params{}'s 64 x 32 (the sweep: the cross-check's
// 32 x 32, one vector of 4 per thread); gemm_operand needs lane_rows * 4 warps rows per pass, so the copy reads
// CK's 128 x 32 A tile and the sweep (rows * cols = 256 * 4) lane_rows * 4 x 256 * 4 / rows: 128 x 8 at R 32.
copy_params range_tile(lds_width_program program, copy_read_order read, index_t lane_rows) {
  const bool sweep = program == lds_width_program::lds_sweep_u32;
  copy_params c = sweep ? gpu::amd::sweep_u32_params().tile : copy_params{};
  c.read = read;
  c.lane_rows = lane_rows;
  if (read == copy_read_order::gemm_operand) {
    const index_t warps = 256 / amd_wave_size();
    c.rows = sweep ? lane_rows * warps : 128;
    c.cols = sweep ? 256 * c.vector / c.rows : 32;
  }
  return c;
}

// The union over the program's range (`what` says which), clean runs only (a parameter set the program rejects,
// or one with misaligned accesses, is not in its range):
//   copy, lds sweep  vector 1, 2, 4, 8 x every LDS layout (ck_xor in both unmerge orders) x every read order
//                    (gemm_operand at lane rows 32 and 16)
//   gemm             vector 1, 2, 4, 8 x every LDS layout
//   morton, conv     example_runs(program, true)
struct range_widths {
  width_set widths;
  int runs = 0, rejected = 0;
  std::string what;  // "vector 1, 2, 4, 8 x layouts ..."
};

// The program's range_widths, computed once per program.
const range_widths& widths_over_range(lds_width_program program) {
  static std::map<lds_width_program, range_widths> cache;
  if (cache.count(program)) return cache[program];
  range_widths out;
  auto add_run = [&](const std::function<sim::run_result()>& run) {
    try {
      const sim::run_result r = run();
      if (!r.clean()) {
        ++out.rejected;
        return;
      }
      const width_set s = lds_widths(r);
      out.widths.insert(s.begin(), s.end());
      ++out.runs;
    } catch (const std::exception&) {
      ++out.rejected;
    }
  };
  auto add = [&](const copy_params& c, const gemm_params& g) {
    add_run([&] {
      lds_sweep_params sweep = gpu::amd::sweep_u32_params();
      sweep.tile = c;
      sweep.iterations = 4;  // the loop repeats one instruction; its count changes no width
      return simulate(program, c, g, sweep);
    });
  };
  if (is_example(program)) {
    for (const example_run& e : example_runs(program, true)) add_run(e.run);
    out.what = program == lds_width_program::morton_f32 ? "the morton example's gfx942 cases x every staging"
                                                        : "the conv example's gfx942 cases (every mode, both problems)";
    return cache[program] = out;
  }
  for (index_t vector : {1, 2, 4, 8}) {
    if (program == lds_width_program::gemm_fp32) {
      for (gemm_lds_layout layout : {gemm_lds_layout::row_major, gemm_lds_layout::padded, gemm_lds_layout::ck_xor}) {
        gemm_params g;
        g.vector = vector;
        g.layout = layout;
        add({}, g);
      }
      continue;
    }
    struct read_at {
      copy_read_order read;
      index_t lane_rows;
    };
    const read_at reads[] = {{copy_read_order::same_as_write, 32}, {copy_read_order::lanes_down_rows, 32},
                             {copy_read_order::gemm_operand, 32}, {copy_read_order::gemm_operand, 16}};
    for (copy_lds_layout layout : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                                   copy_lds_layout::cute_swizzle})
      for (ck_lds_order order : {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024}) {
        if (layout != copy_lds_layout::ck_xor && order != ck_lds_order::l_k0_2025) continue;  // only ck_xor reads it
        for (const read_at& r : reads) {
          // the sweep's tile is one vector per thread (lds_sweep<uint32_t, 4> rejects every vector but 4)
          copy_params c = range_tile(program, r.read, r.lane_rows);
          c.vector = vector;
          c.layout = layout;
          c.ck_order = order;
          add(c, {});
        }
      }
  }
  out.what = program == lds_width_program::gemm_fp32
                 ? "vector 1, 2, 4, 8 x layouts"
                 : "vector 1, 2, 4, 8 x layouts (ck_xor in both orders) x read orders (gemm_operand at R 32, 16)";
  return cache[program] = out;
}

// True when the simulator prices an LDS access somewhere in the program's range (conv fp32: never).
bool uses_lds(lds_width_program program) { return !widths_over_range(program).widths.empty(); }

const std::string arches[] = {"gfx90a", "gfx940"};

// Fails the test case with every message (each as its own CHECK so all are printed).
void report(const std::vector<std::string>& failures) {
  for (const std::string& f : failures) FAIL_CHECK(f);
}

}  // namespace

TEST_CASE("amd: the assembly holds every kernel of gpu/kernels.cu and one pinned kernel per point, for gfx90a and gfx940") {
  const std::vector<kernel_asm>& kernels = cached_kernels("TILESIM_AMD_KERNELS_ASM");
  const std::vector<kernel_asm>& pinned = cached_kernels("TILESIM_AMD_PINNED_ASM");
  for (const std::string& arch : arches) {
    CAPTURE(arch);
    for (const program_info& p : programs_known)
      CHECK_MESSAGE(find_kernel(kernels, arch, p.kernel),
                    p.kernel << " is not in the " << arch << " assembly of gpu/kernels.cu and gpu/kernels_o1.cu");
    for (int i = 0; i < gpu::amd::lds_width_point_count; ++i) {
      const std::string name = "lds_width_point_kernel<" + std::to_string(i) + ">";
      CHECK_MESSAGE(find_kernel(pinned, arch, name), name << " (" << std::string(lds_width_points[i].name) << ") is not in the "
                                                          << arch << " assembly of lds_width_kernels.hip");
    }
  }
  for (const kernel_asm& k : kernels) {
    const program_info* program = program_of(k.name);
    CHECK_MESSAGE(program, where(k) << " is a kernel this test does not know: add its program to programs_known");
    if (!program) continue;
    if (uses_lds(program->id)) {
      CHECK_MESSAGE(!k.lds.empty(), where(k) << " has no ds_ instruction at all: the parser or the build is broken");
      continue;
    }
    // A program without LDS (the simulator prices no LDS access over its range) compiles to no ds_ memory
    // instruction: no device_buffer LDS path, no fallback (ds_bpermute and ds_swizzle touch no LDS memory).
    std::string memory;
    for (const lds_instruction& in : k.lds)
      if (in.shape != ds_shape::not_memory) memory += "\n  line " + std::to_string(in.line) + ": " + in.text;
    CHECK_MESSAGE(memory.empty(), where(k) << ": the simulator prices no LDS access for " << std::string(program->name)
                                           << " over " << widths_over_range(program->id).what
                                           << " (it uses no LDS), yet the kernel has ds_ memory instructions:" << memory);
  }
}

TEST_CASE("amd: at the default parameters every LDS width the simulator priced is in the kernel (gfx90a, gfx940)") {
  std::vector<std::string> failures;
  for (const kernel_asm& k : cached_kernels("TILESIM_AMD_KERNELS_ASM")) {
    const program_info* program = program_of(k.name);
    if (!program) continue;
    const width_set& sim = default_widths(program->id);
    const std::string point = std::string(program->name) + " at its default parameters";
    for (std::string& m : missing_widths(k, sim, point)) failures.push_back(std::move(m));
    width_set others;
    std::set<std::string> other_mnemonics;
    for (const lds_instruction& in : k.lds) {
      std::string why;
      const auto w = priced_width(in, sim, why);
      if (in.shape == ds_shape::not_memory || (w && sim.count(*w))) continue;
      if (w) others.insert(*w);
      other_mnemonics.insert(in.mnemonic);
    }
    MESSAGE(where(k) << ": the simulator priced " << describe(sim) << " at " << point
                     << "; the kernel's other LDS instructions (device_buffer's run-time width switch and element-wise fallback): "
                     << (other_mnemonics.empty() ? std::string("none") : describe(others)) << " ["
                     << [&] {
                          std::string s;
                          for (const std::string& m : other_mnemonics) s += (s.empty() ? "" : " ") + m;
                          return s;
                        }()
                     << "]");
  }
  report(failures);
}

TEST_CASE("amd: each kernel's LDS widths are exactly those the simulator prices over the program's range, and the fallback's") {
  std::vector<std::string> failures;
  for (const kernel_asm& k : cached_kernels("TILESIM_AMD_KERNELS_ASM")) {
    const program_info* program = program_of(k.name);
    if (!program) continue;
    const range_widths& range = widths_over_range(program->id);
    REQUIRE_MESSAGE(range.runs > 0, std::string(program->name) << ": no parameter set of the range ran clean");
    const std::string point = std::string(program->name) + " over " + range.what + " (" +
                              std::to_string(range.runs) + " clean runs, " + std::to_string(range.rejected) +
                              " parameter sets rejected or not clean)";
    if (range.widths.empty()) continue;  // no LDS: the first test case holds the kernel to no ds_ memory instruction
    for (std::string& m : missing_widths(k, range.widths, point)) failures.push_back(std::move(m));
    // device_buffer moves a misaligned, partial or odd-sized vector element by element: instructions of the
    // element's width, which the simulator never prices (it reports such an access instead), and which are
    // never executed where it runs clean. They are allowed, and named when the range itself has no such width.
    const width_set fallback = {{access_kind::load, program->element_bytes}, {access_kind::store, program->element_bytes}};
    width_set allowed = range.widths;
    allowed.insert(fallback.begin(), fallback.end());
    for (std::string& m : unpriced_instructions(k, allowed, point + " or device_buffer's element-wise fallback ("
                                                   + std::to_string(program->element_bytes) + " bytes)"))
      failures.push_back(std::move(m));
    for (const lds_width& w : fallback)
      if (!range.widths.count(w) && kernel_widths(k, allowed).count(w))
        MESSAGE(where(k) << ": its " << w.bytes << "-byte LDS " << std::string(sim::kind_name(w.kind))
                         << "s are device_buffer's element-wise fallback only (the simulator prices " << describe(range.widths)
                         << " over the range); the pinned kernels have no fallback");
  }
  report(failures);
}

TEST_CASE("amd: each pinned point's kernel holds exactly the LDS widths the simulator prices at that point") {
  const std::vector<kernel_asm>& pinned = cached_kernels("TILESIM_AMD_PINNED_ASM");
  std::vector<std::string> failures;
  for (int i = 0; i < gpu::amd::lds_width_point_count; ++i) {
    const lds_width_point& p = lds_width_points[i];
    const std::string point = "point " + std::to_string(i) + " (" + p.name + ")";
    const sim::run_result r = simulate(p.program, p.copy, p.gemm, p.sweep);
    REQUIRE_MESSAGE(r.clean(), point << " does not run clean on the simulator: not a point device_buffer moves by vectors");
    const width_set sim = lds_widths(r);
    const width_set pinned_to = {{access_kind::load, p.lds_load_bytes < 16 ? p.lds_load_bytes : 16},
                                 {access_kind::store, p.lds_store_bytes < 16 ? p.lds_store_bytes : 16}};
    if (sim != pinned_to)
      failures.push_back(point + ": the simulator priced " + describe(sim) + ", the kernel is pinned to " +
                         describe(pinned_to) + " (gpu/amd/lds_width_points.hpp)");
    for (const std::string& arch : arches) {
      const kernel_asm* k = find_kernel(pinned, arch, "lds_width_point_kernel<" + std::to_string(i) + ">");
      if (!k) continue;  // the first test case names it
      for (std::string& m : missing_widths(*k, sim, point)) failures.push_back(std::move(m));
      for (std::string& m : unpriced_instructions(*k, sim, point)) failures.push_back(std::move(m));
    }
  }
  report(failures);
}

TEST_CASE("amd: the assembly reader decodes ds_ mnemonics, pairs and demangled kernel names") {
  const lds_instruction b128 = decode("ds_read_b128", " v[0:3], v4 offset:16");
  CHECK(b128.shape == ds_shape::single);
  CHECK(b128.kind == access_kind::load);
  CHECK(b128.bytes == 16);
  const lds_instruction u16 = decode("ds_read_u16_d16_hi", " v1, v2");
  CHECK((u16.shape == ds_shape::single && u16.bytes == 2));
  const lds_instruction w8 = decode("ds_write_b8", " v1, v2");
  CHECK((w8.shape == ds_shape::single && w8.kind == access_kind::store && w8.bytes == 1));
  const lds_instruction pair = decode("ds_read2_b64", " v[0:3], v4 offset0:2 offset1:3");
  CHECK((pair.shape == ds_shape::pair && pair.bytes == 8 && pair.adjacent));
  const lds_instruction apart = decode("ds_write2_b32", " v1, v2, v3 offset1:8");
  CHECK((apart.shape == ds_shape::pair && apart.kind == access_kind::store && !apart.adjacent));
  CHECK(decode("ds_read2st64_b32", " v[0:1], v2 offset1:1").adjacent == false);
  CHECK(decode("ds_bpermute_b32", " v1, v2, v3").shape == ds_shape::not_memory);
  CHECK(decode("ds_add_u32", " v1, v2").shape == ds_shape::other);
  CHECK(decode("ds_load_b128", " v[0:3], v4").bytes == 16);  // gfx11 spelling

  // A pair is its combined width only where adjacent and priced so.
  std::string why;
  CHECK(priced_width(pair, {{access_kind::load, 16}}, why) == lds_width{access_kind::load, 16});
  CHECK_FALSE(priced_width(pair, {{access_kind::load, 8}}, why).has_value());
  CHECK(why.find("two 8-byte LDS loads") != std::string::npos);

  CHECK(short_name("_ZN7tilesim3gpu15copy_u16_kernelENS_8programs11copy_paramsENS0_11kernel_argsE") ==
        "copy_u16_kernel");
  CHECK(short_name("_ZN7tilesim3gpu3amd22lds_width_point_kernelILi3EEEvNS0_11kernel_argsE") ==
        "lds_width_point_kernel<3>");
  CHECK(mnemonic_of({access_kind::store, 16}) == "ds_write_b128");
  CHECK(describe({{access_kind::load, 4}, {access_kind::load, 16}, {access_kind::store, 16}}) ==
        "loads {4, 16} bytes, stores {16} bytes");
}
