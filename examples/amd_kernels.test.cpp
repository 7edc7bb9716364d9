// tilesim/examples/amd_kernels.test.cpp: hipcc's AMD assembly of every compiled AMD kernel, held to the simulator.
//
// DEFINITION. gpu/kernels/amd/meson.build compiles gpu/kernels/amd/amd_kernels.hip (one kernel per wave-64 launch
// shape of each program's amd_*_shapes table in gpu/kernels/programs/, each a program on constant<shape>) with
// hipcc for gfx90a and gfx940, and keeps the device assembly (-save-temps: the very text assembled into the
// object). This test reads it (the files named
// by TILESIM_AMD_ASM, ':'-separated), splits it into kernels (the .amdhsa_kernel symbols, demangled to
// "copy_fp16_kernel<10>"), and collects per kernel
//   its private segment (scratch) in bytes, from three places that must agree: the kernel descriptor's
//   .amdhsa_private_segment_fixed_size, the "; ScratchSize:" line of the kernel info that follows the function,
//   and the amdhsa.kernels metadata's .private_segment_fixed_size (with .uses_dynamic_stack);
//   its LDS instructions with their widths: ds_read_b128 is a 16-byte load, ds_write_b16 a 2-byte store,
//   ds_read_u16 a 2-byte load, ds_read2_b64 two 8-byte loads in one instruction.
// It runs each kernel's program on the simulator at the kernel's shape (same parameters, workgroup size, grid,
// wave 64; the run-time form, which records what the constant form records: gpu/crosscheck's
// compiled_shapes.test.cpp and morton.test.cpp compare them access by access) and collects the (load|store,
// bytes) of every LDS instruction the simulator priced. The laws, one test case each:
//   1. every AMD shape has its kernel in the gfx90a and the gfx940 assembly, and every kernel there is one
//   2. every kernel's private segment is 0 bytes on both arches (no stack, no spills: zero overhead)
//   3. every kernel's LDS instructions have exactly the widths the simulator prices for its shape: each
//      priced width has an instruction and each instruction has a priced width; a shape without LDS access
//      (Morton read directly, every convolution) has no ds_ memory instruction at all; and where the program
//      has no loop (copy, transpose, Morton, conv: every access unrolled at compile time) each width occurs in the kernel exactly as
//      many times as the simulator records it per wave (one instruction per access: nothing split, merged or
//      duplicated). The GEMM's K loop and the sweep's iteration loop stay loops in the kernel, so there only
//      the widths are held (the counts are printed).
//   4. every gfx90a / gfx942 case of examples/lds_index_swap, cute_swizzle, gemm, morton and conv has an AMD shape,
//      and every sm90 shape of gpu/kernels/programs/ that is no example's sm90 case (the built-in points, the
//      transpose) has its wave-64 twin
//   5. the reader itself: mnemonics, pairs, scratch lines and names, on a small assembly text
// A ds_read2/ds_write2 counts as one access of its combined width only where its two offsets are adjacent and
// the simulator priced that combined width; otherwise it is a mismatch naming the instruction (the simulator
// prices each lane access as its own instruction, and a pair has other bank behaviour).
//
// WORKED EXAMPLE. copy_fp16_kernel<10> (lds_index_swap "ck-xor 2025, mfma read": 128 x 32 fp16, v8, one
// workgroup of 256) on gfx940: ScratchSize 0; ds_write_b128 x 2 and ds_read_b128 x 2; the simulator prices
// per wave 2 "lds store" and 2 "lds load" of 16 bytes: laws 2 and 3 hold. Had the backend split the load into
// two ds_read_b64, law 3 would fail with "copy_fp16_kernel<10> (gfx940, line 812 of ...): ds_read_b64 v[2:3],
// v15 moves 8 bytes per lane; the simulator priced loads {16} bytes, stores {16} bytes for fp16 128x32 ...".
//
// INVARIANTS: a missing variable, file, arch or kernel fails with its name; every failure names the kernel,
// the arch and, for an instruction, its assembly line and the widths on both sides.
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
#include "examples/cute_swizzle/cute_swizzle_variants.hpp"
#include "examples/gemm/gemm_variants.hpp"
#include "examples/lds_index_swap/lds_index_swap_variants.hpp"
#include "examples/morton/morton_variants.hpp"
#include "examples/synthesized/synthesized_variants.hpp"
#include "gpu/kernels/programs/conv_f32.hpp"
#include "gpu/kernels/programs/copy_fp16.hpp"
#include "gpu/kernels/programs/copy_fp32.hpp"
#include "gpu/kernels/programs/gemm_fp32.hpp"
#include "gpu/kernels/programs/lds_sweep_u32.hpp"
#include "gpu/kernels/programs/morton_f32.hpp"
#include "gpu/kernels/programs/transpose_f32.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"
#include "kernel/transpose/transpose.hpp"

using namespace tilesim;
using namespace tilesim::programs;
using namespace tilesim::gpu::compiled;
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
using width_counts = std::map<lds_width, int>;

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

// "16-byte load x 2, 16-byte store x 2"; "none" when empty.
std::string describe(const width_counts& c) {
  std::string out;
  for (const auto& [w, n] : c)
    out += (out.empty() ? "" : ", ") + std::to_string(w.bytes) + "-byte " + sim::kind_name(w.kind) + " x " + std::to_string(n);
  return out.empty() ? "none" : out;
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

// A byte count the assembly states, and where (-1 / 0: not found).
struct stated_bytes {
  long bytes = -1;
  int line = 0;
};

struct kernel_asm {
  std::string file, arch, symbol, name;  // name: "copy_fp16_kernel<10>"
  std::vector<lds_instruction> lds;
  stated_bytes descriptor_private;  // .amdhsa_private_segment_fixed_size in the .amdhsa_kernel block
  stated_bytes scratch_size;        // "; ScratchSize: N" of the kernel info after the function
  stated_bytes metadata_private;    // .private_segment_fixed_size in the amdhsa.kernels metadata
  stated_bytes dynamic_stack;       // .uses_dynamic_stack (1 true, 0 false) in the descriptor or the metadata
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

// "void tilesim::gpu::amd::copy_fp16_kernel<10>(tilesim::gpu::kernel_args)" -> "copy_fp16_kernel<10>".
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

// The number after `key` when `line` (trimmed) starts with it: value_after(".amdhsa_x 12", ".amdhsa_x") == 12.
std::optional<long> value_after(const std::string& line, const std::string& key) {
  if (line.rfind(key, 0) != 0) return std::nullopt;
  const std::string rest = trim(line.substr(key.size()));
  if (rest == "true") return 1;
  if (rest == "false") return 0;
  char* end = nullptr;
  const long v = std::strtol(rest.c_str(), &end, 0);
  if (end == rest.c_str()) return std::nullopt;
  return v;
}

// The kernels of one device assembly text (named `path` in messages), with their LDS instructions and
// scratch lines, in file order.
std::vector<kernel_asm> parse_assembly_text(const std::string& text, const std::string& path) {
  std::string arch;
  std::set<std::string> kernel_symbols;
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (const std::string& raw : lines) {
    const std::string line = trim(raw);
    const std::string target = ".amdgcn_target \"";
    if (line.rfind(target, 0) == 0) {
      // ".amdgcn_target "amdgcn-amd-amdhsa--gfx940"" (possibly ":sramecc+:xnack-" after the processor)
      std::string id = line.substr(target.size(), line.find('"', target.size()) - target.size());
      id = id.substr(0, id.find(':'));  // the features first: ":xnack-" ends in '-' too
      arch = id.substr(id.rfind('-') + 1);
    }
    if (line.rfind(".amdhsa_kernel ", 0) == 0) kernel_symbols.insert(trim(line.substr(15)));
  }
  REQUIRE_MESSAGE(!arch.empty(), path << " has no .amdgcn_target line: not an AMD device assembly file");
  REQUIRE_MESSAGE(!kernel_symbols.empty(), path << " (" << arch << ") has no .amdhsa_kernel: no kernels");
  std::vector<kernel_asm> kernels;
  std::map<std::string, std::size_t> index;  // symbol -> kernels[]
  kernel_asm* current = nullptr;        // inside the function body
  kernel_asm* ended = nullptr;          // the function whose kernel info follows (after .Lfunc_end)
  kernel_asm* descriptor = nullptr;     // inside its .amdhsa_kernel ... .end_amdhsa_kernel block
  kernel_asm* metadata = nullptr;       // the amdhsa.kernels entry last named
  auto by_symbol = [&](const std::string& symbol) -> kernel_asm* {
    const auto it = index.find(symbol);
    return it == index.end() ? nullptr : &kernels[it->second];
  };
  auto state = [](stated_bytes& s, long v, int line) { s = {v, line}; };
  kernels.reserve(kernel_symbols.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& raw = lines[i];
    const int line_no = static_cast<int>(i + 1);
    const std::string line = trim(raw);
    if (!raw.empty() && raw[0] != '\t' && raw[0] != ' ' && raw[0] != ';') {  // a label (or a directive in column 0)
      const std::string label = raw.substr(0, raw.find(':'));
      if (raw.find(':') != std::string::npos && kernel_symbols.count(label) && !index.count(label)) {
        index[label] = kernels.size();
        kernels.push_back({path, arch, label, short_name(label), {}, {}, {}, {}, {}});
        current = &kernels.back();
        continue;
      }
      if (raw.rfind(".Lfunc_end", 0) == 0) {
        ended = current;
        current = nullptr;
      }
      continue;
    }
    if (line.rfind(".amdhsa_kernel ", 0) == 0) descriptor = by_symbol(trim(line.substr(15)));
    if (line.rfind(".end_amdhsa_kernel", 0) == 0) descriptor = nullptr;
    if (descriptor) {
      if (auto v = value_after(line, ".amdhsa_private_segment_fixed_size")) state(descriptor->descriptor_private, *v, line_no);
      if (auto v = value_after(line, ".amdhsa_uses_dynamic_stack")) state(descriptor->dynamic_stack, *v, line_no);
    }
    if (auto v = value_after(line, "; ScratchSize:"); v && ended) {
      state(ended->scratch_size, *v, line_no);
      ended = nullptr;
    }
    if (line.rfind(".name:", 0) == 0) {  // metadata: a kernel's entry (an argument's name is no kernel symbol)
      if (kernel_asm* k = by_symbol(trim(line.substr(6)))) metadata = k;
    }
    if (metadata) {
      if (auto v = value_after(line, ".private_segment_fixed_size:")) state(metadata->metadata_private, *v, line_no);
      if (auto v = value_after(line, ".uses_dynamic_stack:"); v && *v) state(metadata->dynamic_stack, *v, line_no);
    }
    if (!current || line.rfind("ds_", 0) != 0) continue;
    const std::string code = trim(line.substr(0, line.find(';')));
    const std::string mnemonic = code.substr(0, code.find_first_of(" \t"));
    lds_instruction ds = decode(mnemonic, code.substr(mnemonic.size()));
    ds.line = line_no;
    ds.text = code;
    current->lds.push_back(ds);
  }
  return kernels;
}

// The kernels of one device assembly file.
std::vector<kernel_asm> parse_assembly(const std::string& path) {
  std::ifstream f(path);
  REQUIRE_MESSAGE(f.good(), "cannot read the AMD device assembly file " << path);
  std::stringstream text;
  text << f.rdbuf();
  return parse_assembly_text(text.str(), path);
}

// Every kernel of the files named by TILESIM_AMD_ASM (':'-separated), parsed once.
const std::vector<kernel_asm>& assembly_kernels() {
  static const std::vector<kernel_asm> all = [] {
    const char* value = std::getenv("TILESIM_AMD_ASM");
    REQUIRE_MESSAGE(value != nullptr, "TILESIM_AMD_ASM is not set: it names the device assembly files (gpu/kernels/amd/meson.build "
                                      "sets it for `meson test amd-lds-widths`)");
    std::vector<kernel_asm> out;
    std::stringstream ss(value);
    for (std::string path; std::getline(ss, path, ':');)
      if (!path.empty())
        for (kernel_asm& k : parse_assembly(path)) out.push_back(std::move(k));
    return out;
  }();
  return all;
}

// The kernel named `name` in `arch`, or nullptr.
const kernel_asm* find_kernel(const std::vector<kernel_asm>& all, const std::string& arch, const std::string& name) {
  for (const kernel_asm& k : all)
    if (k.arch == arch && k.name == name) return &k;
  return nullptr;
}

// "copy_fp16_kernel<10> (gfx940, line 1234 of .../amd_kernels-hip-amdgcn-amd-amdhsa-gfx940.s)".
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

// How many instructions of each width the kernel has, as the simulator would price them (pairs per priced_width;
// instructions with no width left out: unpriced_instructions names them).
width_counts kernel_counts(const kernel_asm& k, const width_set& sim) {
  width_counts c;
  std::string why;
  for (const lds_instruction& in : k.lds)
    if (in.shape != ds_shape::not_memory)
      if (const auto w = priced_width(in, sim, why)) ++c[*w];
  return c;
}

// The widths of kernel_counts.
width_set kernel_widths(const kernel_asm& k, const width_set& sim) {
  width_set s;
  for (const auto& [w, n] : kernel_counts(k, sim)) s.insert(w);
  return s;
}

// Every width in `sim` has an instruction in the kernel; one message per missing width.
std::vector<std::string> missing_widths(const kernel_asm& k, const width_set& sim, const std::string& shape) {
  std::vector<std::string> out;
  const width_set have = kernel_widths(k, sim);
  for (const lds_width& w : sim)
    if (!have.count(w))
      out.push_back(where(k) + " has no " + std::to_string(w.bytes) + "-byte LDS " + sim::kind_name(w.kind) + " (" +
                    mnemonic_of(w) + "): the simulator priced " + describe(sim) + " for " + shape +
                    "; the kernel has " + describe(have));
  return out;
}

// Every LDS memory instruction of the kernel has a width in `sim`; one message per instruction that has not.
std::vector<std::string> unpriced_instructions(const kernel_asm& k, const width_set& sim, const std::string& shape) {
  std::vector<std::string> out;
  for (const lds_instruction& in : k.lds) {
    if (in.shape == ds_shape::not_memory) continue;
    std::string why;
    const auto w = priced_width(in, sim, why);
    if (w && sim.count(*w)) continue;
    if (w) why = "moves " + std::to_string(w->bytes) + " bytes per lane";
    out.push_back(where(k, in.line) + ": " + in.text + " " + why + "; the simulator priced " + describe(sim) +
                  " for " + shape);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The simulator, per AMD shape.

// What the simulator priced in LDS: the widths over the whole run, and the count per width of one wave when
// every wave records the same counts (`uniform`; else the counts are wave 0's of workgroup 0).
struct priced_lds {
  width_set widths;
  width_counts per_wave;
  bool uniform = true;
};

priced_lds lds_of(const sim::run_result& r) {
  priced_lds p;
  bool first = true;
  for (const sim::workgroup_record& g : r.workgroups)
    for (const sim::wave_record& w : g.waves) {
      width_counts c;
      for (const sim::wave_instruction& i : w.instructions)
        if (i.access.space == sim::memory_space::lds) {
          const lds_width lw{i.access.kind, i.access.width};
          p.widths.insert(lw);
          ++c[lw];
        }
      if (first) p.per_wave = c;
      else if (c != p.per_wave) p.uniform = false;
      first = false;
    }
  return p;
}

const char* layout_name(copy_lds_layout l) {
  switch (l) {
    case copy_lds_layout::row_major: return "row_major";
    case copy_lds_layout::padded: return "padded";
    case copy_lds_layout::ck_xor: return "ck_xor";
    case copy_lds_layout::cute_swizzle: return "cute_swizzle";
  }
  return "?";
}
const char* layout_name(gemm_lds_layout l) {
  switch (l) {
    case gemm_lds_layout::row_major: return "row_major";
    case gemm_lds_layout::padded: return "padded";
    case gemm_lds_layout::ck_xor: return "ck_xor";
  }
  return "?";
}
const char* read_name(copy_read_order r) {
  switch (r) {
    case copy_read_order::same_as_write: return "same_as_write";
    case copy_read_order::lanes_down_rows: return "lanes_down_rows";
    case copy_read_order::gemm_operand: return "gemm_operand";
    case copy_read_order::ldmatrix_operand: return "ldmatrix_operand";
  }
  return "?";
}
const char* texel_layout_name(examples::texel_layout l) {
  switch (l) {
    case examples::texel_layout::row_major: return "row_major";
    case examples::texel_layout::morton_transforms: return "morton (transforms)";
    case examples::texel_layout::morton_bits: return "morton (bits)";
  }
  return "?";
}
const char* staging_name(examples::texel_staging s) {
  switch (s) {
    case examples::texel_staging::direct: return "direct";
    case examples::texel_staging::lds_row_major: return "LDS row-major";
    case examples::texel_staging::lds_morton: return "LDS Z order";
  }
  return "?";
}

// "fp16 128x32 v8 ck_xor (2024) gemm_operand R32, grid 1 x 256 threads, wave 64".
std::string shape_name(const char* type, const copy_shape& s) {
  const copy_params& p = s.params;
  std::string name = std::string(type) + " " + std::to_string(p.rows) + "x" + std::to_string(p.cols) + " v" +
                     std::to_string(p.vector) + " " + layout_name(p.layout);
  if (p.layout == copy_lds_layout::ck_xor) name += p.ck_order == ck_lds_order::k0_l_2024 ? " (2024)" : " (2025)";
  if (p.layout == copy_lds_layout::cute_swizzle && p.swizzle_bits >= 0)
    name += " <" + std::to_string(p.swizzle_bits) + "," + std::to_string(p.swizzle_base) + "," +
            std::to_string(p.swizzle_shift) + ">";
  name += std::string(" ") + read_name(p.read);
  if (p.read == copy_read_order::gemm_operand) name += " R" + std::to_string(p.lane_rows);
  return name + ", grid " + std::to_string(s.grid) + " x " + std::to_string(s.threads) + " threads, wave " +
         std::to_string(s.warp_size);
}
std::string shape_name(const gemm_shape& s) {
  const gemm_params& p = s.params;
  return "gemm fp32 " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) + " in " +
         std::to_string(p.m_per_block) + "x" + std::to_string(p.n_per_block) + "x" + std::to_string(p.k_per_block) +
         " v" + std::to_string(p.vector) + " " + layout_name(p.layout) + ", " + std::to_string(s.threads) +
         " threads, wave " + std::to_string(s.warp_size);
}
std::string shape_name(const transpose_shape& s) {
  return "transpose fp32 " + std::to_string(s.params.n) + "x" + std::to_string(s.params.n) + ", " +
         std::to_string(s.threads) + " threads, wave " + std::to_string(s.warp_size);
}
std::string shape_name(const examples::morton_shape& s) {
  const examples::morton_params& p = s.params;
  return "morton fp32 " + std::to_string(p.height) + "x" + std::to_string(p.width) + " " + texel_layout_name(p.layout) +
         " " + std::to_string(p.footprint_rows) + "x" + std::to_string(p.footprint_cols) + " reads, " +
         staging_name(p.staging) + ", grid " + std::to_string(s.grid) + " x " + std::to_string(s.threads) +
         " threads, wave " + std::to_string(s.warp_size);
}

// copy_tile<T> at the shape (run-time form; run_copy's launch is the shape's, so require_launch_shape holds).
template <class T>
sim::run_result simulate(const copy_shape& s) {
  const sim::launch l{.grid = static_cast<int>(s.grid), .block = static_cast<int>(s.threads),
                      .wave_size = static_cast<int>(s.warp_size)};
  return run_copy<T>(l, s.params, copy_input<T>(copy_elements(l, s.params)));
}

// lds_sweep<std::uint32_t, 4> at the tile shape, 4 iterations (a run-time argument of the kernel: the loop
// repeats one instruction, whose width is what is compared).
sim::run_result simulate_sweep(const copy_shape& s) {
  const sim::launch l{.grid = static_cast<int>(s.grid), .block = static_cast<int>(s.threads),
                      .wave_size = static_cast<int>(s.warp_size)};
  copy_params p = s.params;
  const index_t n = s.grid * p.rows * p.cols;
  sim::global_memory mem;
  p.input = mem.add<std::uint32_t>("in", copy_input<std::uint32_t>(n));
  p.output = mem.add<std::uint32_t>("out", n, ~std::uint32_t{0});
  const copy_shape at{p, s.threads, s.warp_size, s.grid};
  return sim::run(l, std::move(mem), [&at](sim::thread_context& ctx) { lds_sweep<std::uint32_t, 4>(ctx, at, 4); });
}

sim::run_result simulate(const gemm_shape& s) {
  const sim::launch l = gemm_launch(s.params, static_cast<int>(s.threads), static_cast<int>(s.warp_size));
  return run_gemm(l, s.params, gemm_input(s.params.m * s.params.k, 1), gemm_input(s.params.n * s.params.k, 2));
}

sim::run_result simulate(const transpose_shape& s) {
  const sim::launch l{.grid = static_cast<int>(transpose_workgroups(s.params)), .block = static_cast<int>(s.threads),
                      .wave_size = static_cast<int>(s.warp_size)};
  const index_t n = s.params.n;
  sim::global_memory mem;
  std::vector<float> in(static_cast<std::size_t>(n * n));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  transpose_shape at = s;
  at.params.input = mem.add<float>("in", in);
  at.params.output = mem.add<float>("out", n * n, -1.0f);
  return sim::run(l, std::move(mem), [&at](sim::thread_context& ctx) { transpose(ctx, at); });
}

sim::run_result simulate(const examples::morton_shape& s) {
  const sim::launch l{.grid = static_cast<int>(s.grid), .block = static_cast<int>(s.threads),
                      .wave_size = static_cast<int>(s.warp_size)};
  return examples::run_morton(l, s.params, examples::morton_image(s.params.height, s.params.width));
}

std::string shape_name(const examples::conv_shape& s) {
  const examples::conv_params& p = s.params;
  const char* mode = p.mode == examples::conv_mode::naive ? "naive" : p.mode == examples::conv_mode::sliding ? "sliding" : "im2col";
  return std::string("conv fp32 ") + mode + " " + std::to_string(p.n) + "x" + std::to_string(p.h) + "x" + std::to_string(p.w) +
         "x" + std::to_string(p.c_in) + " " + std::to_string(p.r) + "x" + std::to_string(p.s) + " -> " + std::to_string(p.c_out) +
         ", grid " + std::to_string(s.grid) + " x " + std::to_string(s.threads) + " threads, wave " + std::to_string(s.warp_size);
}

sim::run_result simulate(const examples::conv_shape& s) {
  const sim::launch l{.grid = static_cast<int>(s.grid), .block = static_cast<int>(s.threads),
                      .wave_size = static_cast<int>(s.warp_size)};
  const examples::conv_operands ops = examples::conv_inputs(s.params);
  return examples::run_conv(l, s.params, ops.input, ops.weights);
}

// One compiled AMD kernel: its name in the assembly, its shape in words, its program's run on the simulator.
struct amd_kernel {
  std::string name;   // "copy_fp16_kernel<10>"
  std::string shape;  // shape_name(...)
  std::function<sim::run_result()> simulate;
  bool straight_line = true;  // no loop in the program: each access is one instruction of the kernel
};

// Every kernel of amd_kernels.hip, in its order: one per entry of each program's amd_*_shapes table.
const std::vector<amd_kernel>& amd_kernels() {
  static const std::vector<amd_kernel> all = [] {
    std::vector<amd_kernel> v;
    auto name = [](const char* kernel, std::size_t i) { return std::string(kernel) + "<" + std::to_string(i) + ">"; };
    for (std::size_t i = 0; i < std::size(amd_copy_fp16_shapes); ++i) {
      const copy_shape s = amd_copy_fp16_shapes[i];
      v.push_back({name("copy_fp16_kernel", i), shape_name("copy fp16", s), [s] { return simulate<std::uint16_t>(s); }});
    }
    for (std::size_t i = 0; i < std::size(amd_copy_fp32_shapes); ++i) {
      const copy_shape s = amd_copy_fp32_shapes[i];
      v.push_back({name("copy_fp32_kernel", i), shape_name("copy fp32", s), [s] { return simulate<float>(s); }});
    }
    for (std::size_t i = 0; i < std::size(amd_gemm_shapes); ++i) {
      const gemm_shape s = amd_gemm_shapes[i];
      v.push_back({name("gemm_f32_kernel", i), shape_name(s), [s] { return simulate(s); }, false});
    }
    for (std::size_t i = 0; i < std::size(amd_lds_sweep_shapes); ++i) {
      const copy_shape s = amd_lds_sweep_shapes[i];
      v.push_back({name("lds_sweep_u32_kernel", i), shape_name("lds sweep u32", s), [s] { return simulate_sweep(s); }, false});
    }
    for (std::size_t i = 0; i < std::size(amd_transpose_shapes); ++i) {
      const transpose_shape s = amd_transpose_shapes[i];
      v.push_back({name("transpose_f32_kernel", i), shape_name(s), [s] { return simulate(s); }});
    }
    for (std::size_t i = 0; i < std::size(amd_morton_shapes); ++i) {
      const examples::morton_shape s = amd_morton_shapes[i];
      v.push_back({name("morton_f32_kernel", i), shape_name(s), [s] { return simulate(s); }});
    }
    for (std::size_t i = 0; i < std::size(amd_conv_shapes); ++i) {
      const examples::conv_shape s = amd_conv_shapes[i];
      v.push_back({name("conv_f32_kernel", i), shape_name(s), [s] { return simulate(s); }});
    }
    return v;
  }();
  return all;
}

// The kernel's simulation, run once and required clean (no race, bounds error or misaligned access).
const priced_lds& priced(const amd_kernel& k) {
  static std::map<std::string, priced_lds> cache;
  auto it = cache.find(k.name);
  if (it != cache.end()) return it->second;
  const sim::run_result r = k.simulate();
  REQUIRE_MESSAGE(r.clean(), k.name << " (" << k.shape << ") does not run clean on the simulator");
  return cache.emplace(k.name, lds_of(r)).first->second;
}

const std::string arches[] = {"gfx90a", "gfx940"};

// Fails the test case with every message (each as its own CHECK so all are printed).
void report(const std::vector<std::string>& failures) {
  for (const std::string& f : failures) FAIL_CHECK(f);
}

}  // namespace

TEST_CASE("amd: every AMD shape's kernel is in the gfx90a and the gfx940 assembly, and every kernel there is one") {
  const std::vector<kernel_asm>& all = assembly_kernels();
  for (const std::string& arch : arches)
    for (const amd_kernel& k : amd_kernels())
      CHECK_MESSAGE(find_kernel(all, arch, k.name),
                    k.name << " (" << k.shape << ") is not in the " << arch << " assembly of gpu/kernels/amd/amd_kernels.hip");
  std::set<std::string> known;
  for (const amd_kernel& k : amd_kernels()) known.insert(k.name);
  for (const kernel_asm& k : all) {
    CHECK_MESSAGE(known.count(k.name), where(k) << " is a kernel of no gpu/kernels/programs/ AMD entry this test knows");
    CHECK_MESSAGE((k.arch == "gfx90a" || k.arch == "gfx940"), where(k) << " is for an arch this test does not check");
  }
}

TEST_CASE("amd: every kernel's private segment (scratch) is 0 bytes on gfx90a and gfx940: descriptor, ScratchSize, metadata") {
  std::vector<std::string> failures;
  int kernels = 0;
  for (const kernel_asm& k : assembly_kernels()) {
    ++kernels;
    const struct {
      const char* what;
      const stated_bytes& s;
    } stated[] = {{".amdhsa_private_segment_fixed_size (kernel descriptor)", k.descriptor_private},
                  {"; ScratchSize: (kernel info)", k.scratch_size},
                  {".private_segment_fixed_size (amdhsa.kernels metadata)", k.metadata_private}};
    for (const auto& [what, s] : stated) {
      if (s.bytes < 0)
        failures.push_back(where(k) + " states no " + what + ": the reader or the compiler's output format changed");
      else if (s.bytes != 0)
        failures.push_back(where(k, s.line) + ": " + std::to_string(s.bytes) + " bytes of private segment (scratch) per lane, " +
                           what + "; a compiled kernel must use none (registers only: no stack, no spills)");
    }
    if (k.dynamic_stack.bytes > 0)
      failures.push_back(where(k, k.dynamic_stack.line) + " uses a dynamic stack (.uses_dynamic_stack)");
  }
  CHECK(kernels == 2 * static_cast<int>(amd_kernels().size()));
  report(failures);
}

TEST_CASE("amd: each kernel's LDS instructions are exactly the (load|store, bytes) the simulator prices for its shape at "
          "wave 64, once per priced access where the program has no loop; no LDS access, no ds_ memory instruction") {
  std::vector<std::string> failures;
  const std::vector<kernel_asm>& all = assembly_kernels();
  for (const amd_kernel& program : amd_kernels()) {
    const priced_lds& sim = priced(program);
    for (const std::string& arch : arches) {
      const kernel_asm* k = find_kernel(all, arch, program.name);
      if (!k) continue;  // the first test case names it
      if (sim.widths.empty()) {
        // No LDS access on the simulator: the kernel has no ds_ memory instruction (ds_bpermute, ds_swizzle are not memory).
        for (const lds_instruction& in : k->lds)
          if (in.shape != ds_shape::not_memory)
            failures.push_back(where(*k, in.line) + ": " + in.text + ": the simulator prices no LDS access for " +
                               program.shape + " (the program uses no LDS), yet the kernel has this ds_ memory instruction");
        continue;
      }
      for (std::string& m : missing_widths(*k, sim.widths, program.shape)) failures.push_back(std::move(m));
      for (std::string& m : unpriced_instructions(*k, sim.widths, program.shape)) failures.push_back(std::move(m));
      const width_counts in_kernel = kernel_counts(*k, sim.widths);
      if (program.straight_line) {
        if (!sim.uniform)
          failures.push_back(program.name + " (" + program.shape + "): its waves record different LDS instruction counts on "
                             "the simulator, so one kernel body cannot hold one instruction per access");
        else if (in_kernel != sim.per_wave)
          failures.push_back(where(*k) + ": LDS instructions " + describe(in_kernel) + ", the simulator records " +
                             describe(sim.per_wave) + " per wave for " + program.shape +
                             " (a program without a loop: one instruction per access, none split, merged or duplicated)");
      } else {
        MESSAGE(where(*k) << ": " << describe(in_kernel) << " in the kernel (a loop body), " << describe(sim.per_wave)
                          << " per wave on the simulator for " << program.shape);
      }
    }
  }
  report(failures);
}

TEST_CASE("amd: every gfx90a/gfx942 example case has an AMD shape, and every built-in sm90 compiled shape its wave-64 twin") {
  const index_t wave = sim::arch_named("gfx942").wave_size;
  REQUIRE(wave == amd_wave);
  REQUIRE(sim::arch_named("gfx90a").wave_size == amd_wave);
  auto amd_arch = [](const std::string& arch) { return arch == "gfx90a" || arch == "gfx942"; };
  int cases = 0;
  std::vector<copy_shape> sm90_example_copies;
  std::vector<gemm_shape> sm90_example_gemms;
  auto copy_cases = [&](const char* example, const std::vector<examples::copy_case>& list) {
    for (const examples::copy_case& c : list) {
      if (c.arch == "sm90") sm90_example_copies.push_back({c.params, c.block, 32, 1});
      if (!amd_arch(c.arch)) continue;
      ++cases;
      CHECK_MESSAGE(gpu::compiled::find_shape(amd_copy_fp16_shapes, copy_shape{c.params, c.block, wave, 1}) >= 0,
                    example << " case '" << c.name << "' (" << c.arch << ") has no entry in amd_copy_fp16_shapes");
    }
  };
  copy_cases("lds-index-swap", examples::lds_index_swap_cases());
  copy_cases("cute-swizzle", examples::cute_swizzle_cases());
  copy_cases("synthesized", examples::synthesized_cases());
  for (const examples::gemm_case& c : examples::gemm_cases()) {
    if (c.arch == "sm90") sm90_example_gemms.push_back({c.params, c.block, 32});
    if (!amd_arch(c.arch)) continue;
    ++cases;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_gemm_shapes, gemm_shape{c.params, c.block, wave}) >= 0,
                  "gemm case '" << c.name << "' (" << c.arch << ") has no entry in amd_gemm_shapes");
  }
  for (const examples::morton_case& c : examples::morton_cases()) {
    if (!amd_arch(c.arch)) continue;
    ++cases;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_morton_shapes, examples::morton_shape{c.params, c.block, wave, c.grid}) >= 0,
                  "morton case '" << c.name << "' (" << c.arch << ") has no entry in amd_morton_shapes");
  }
  for (const examples::conv_case& c : examples::conv_cases()) {
    if (!amd_arch(c.arch)) continue;
    ++cases;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_conv_shapes, examples::conv_shape{c.params, c.block, wave, c.grid}) >= 0,
                  "conv case '" << c.name << "' (" << c.arch << ") has no entry in amd_conv_shapes");
  }
  // lds-index-swap gfx90a and gfx942, cute-swizzle, synthesized, gemm, morton, conv (gfx942)
  CHECK(cases == 4 + 4 + 4 + 2 + 3 + 4 + 6);

  // The sm90 tables' shapes that are no example's sm90 case: the built-in points and the transpose.
  auto is_example = [](const auto& list, const auto& s) {
    for (const auto& e : list)
      if (e == s) return true;
    return false;
  };
  for (const copy_shape& s : gpu::compiled::copy_fp16_shapes) {
    if (is_example(sm90_example_copies, s)) continue;
    copy_shape twin = s;
    twin.warp_size = amd_wave;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_copy_fp16_shapes, twin) >= 0,
                  shape_name("copy fp16", s) << " is compiled for sm90 but has no wave-64 twin in amd_copy_fp16_shapes");
  }
  for (const copy_shape& s : gpu::compiled::copy_fp32_shapes) {
    copy_shape twin = s;
    twin.warp_size = amd_wave;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_copy_fp32_shapes, twin) >= 0,
                  shape_name("copy fp32", s) << " is compiled for sm90 but has no wave-64 twin in amd_copy_fp32_shapes");
  }
  for (const copy_shape& s : gpu::compiled::lds_sweep_shapes) {
    copy_shape twin = s;
    twin.warp_size = amd_wave;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_lds_sweep_shapes, twin) >= 0,
                  shape_name("lds sweep u32", s) << " is compiled for sm90 but has no wave-64 twin in amd_lds_sweep_shapes");
  }
  for (const gemm_shape& s : gpu::compiled::gemm_shapes) {
    if (is_example(sm90_example_gemms, s)) continue;
    gemm_shape twin = s;
    twin.warp_size = amd_wave;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_gemm_shapes, twin) >= 0,
                  shape_name(s) << " is compiled for sm90 but has no wave-64 twin in amd_gemm_shapes");
  }
  for (const transpose_shape& s : gpu::compiled::transpose_shapes) {
    transpose_shape twin = s;
    twin.warp_size = amd_wave;
    CHECK_MESSAGE(gpu::compiled::find_shape(amd_transpose_shapes, twin) >= 0,
                  shape_name(s) << " is compiled for sm90 but has no wave-64 twin in amd_transpose_shapes");
  }
}

TEST_CASE("amd: the assembly reader decodes ds_ mnemonics, pairs, scratch lines and demangled kernel names") {
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

  CHECK(short_name("_ZN7tilesim3gpu3amd16copy_fp16_kernelILi10EEEvNS0_11kernel_argsE") == "copy_fp16_kernel<10>");
  CHECK(short_name("_ZN7tilesim3gpu3amd20lds_sweep_u32_kernelILi3EEEvlNS0_11kernel_argsE") == "lds_sweep_u32_kernel<3>");
  CHECK(mnemonic_of({access_kind::store, 16}) == "ds_write_b128");
  CHECK(describe({{access_kind::load, 4}, {access_kind::load, 16}, {access_kind::store, 16}}) ==
        "loads {4, 16} bytes, stores {16} bytes");
  CHECK(describe(width_counts{{{access_kind::load, 16}, 2}, {{access_kind::store, 4}, 1}}) ==
        "16-byte load x 2, 4-byte store x 1");

  // A two-kernel file in hipcc's layout: function, kernel info, descriptor block, metadata.
  const char* sym_a = "_ZN7tilesim3gpu3amd16copy_fp16_kernelILi0EEEvNS0_11kernel_argsE";
  const char* sym_b = "_ZN7tilesim3gpu3amd16copy_fp16_kernelILi1EEEvNS0_11kernel_argsE";
  std::string text = "\t.text\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\"\n";
  auto function = [&](const char* sym, const char* body, int scratch, int end) {
    text += std::string(sym) + ": ; @" + sym + "\n; %bb.0:\n" + body + "\ts_endpgm\n.Lfunc_end" + std::to_string(end) +
            ":\n\t.size\t" + sym + ", .Lfunc_end0-" + sym + "\n\t.section\t.AMDGPU.csdata\n; Kernel info:\n; NumVgprs: 8\n" +
            "; ScratchSize: " + std::to_string(scratch) + "\n; Occupancy: 8\n";
  };
  auto descriptor = [&](const char* sym, int scratch) {
    text += std::string("\t.amdhsa_kernel ") + sym + "\n\t\t.amdhsa_group_segment_fixed_size 0\n" +
            "\t\t.amdhsa_private_segment_fixed_size " + std::to_string(scratch) + "\n\t\t.amdhsa_uses_dynamic_stack 0\n" +
            "\t.end_amdhsa_kernel\n";
  };
  function(sym_a, "\tds_write_b128 v14, v[2:5] offset:1024\n\tds_read2_b64 v[0:3], v4 offset0:2 offset1:3\n", 0, 0);
  descriptor(sym_a, 0);
  function(sym_b, "\tds_bpermute_b32 v1, v2, v3\n\tglobal_load_dword v1, v[2:3], off\n", 24, 1);
  descriptor(sym_b, 24);
  text += "\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .args:\n      - .name: a\n        .offset: 0\n";
  text += std::string("    .name:           ") + sym_a + "\n    .private_segment_fixed_size: 0\n    .uses_dynamic_stack: false\n";
  text += "  - .args:\n      - .offset: 0\n";
  text += std::string("    .name:           ") + sym_b + "\n    .private_segment_fixed_size: 24\n    .uses_dynamic_stack: true\n";
  text += "...\n\t.end_amdgpu_metadata\n";
  const std::vector<kernel_asm> ks = parse_assembly_text(text, "reader self-test");
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].arch == "gfx90a");
  CHECK(ks[0].name == "copy_fp16_kernel<0>");
  REQUIRE(ks[0].lds.size() == 2);
  CHECK(ks[0].lds[0].mnemonic == "ds_write_b128");
  CHECK(ks[0].lds[0].line == 5);
  CHECK((ks[0].lds[1].shape == ds_shape::pair && ks[0].lds[1].adjacent));
  CHECK(ks[0].descriptor_private.bytes == 0);
  CHECK(ks[0].scratch_size.bytes == 0);
  CHECK(ks[0].metadata_private.bytes == 0);
  CHECK(ks[0].dynamic_stack.bytes == 0);
  CHECK(ks[1].name == "copy_fp16_kernel<1>");
  REQUIRE(ks[1].lds.size() == 1);
  CHECK(ks[1].lds[0].shape == ds_shape::not_memory);
  CHECK(ks[1].descriptor_private.bytes == 24);
  CHECK(ks[1].scratch_size.bytes == 24);
  CHECK(ks[1].metadata_private.bytes == 24);
  CHECK(ks[1].dynamic_stack.bytes == 1);
  CHECK(kernel_counts(ks[0], {{access_kind::load, 16}, {access_kind::store, 16}}) ==
        width_counts{{{access_kind::load, 16}, 1}, {{access_kind::store, 16}, 1}});
}
