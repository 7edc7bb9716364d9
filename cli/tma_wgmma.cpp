// tilesim/cli/tma_wgmma.cpp: `tilesim tma-wgmma` (tma_wgmma.hpp): options in, verdict out.
#include "cli/tma_wgmma.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "spec/hopper/tma_wgmma.hpp"
#include "util/args.hpp"

namespace tilesim::cli {
namespace {

using namespace tilesim::hopper;

const std::vector<std::string> swizzle_words = {"none", "32B", "64B", "128B"};
const std::vector<std::string> type_words = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"};
constexpr std::int64_t addr_max = descriptor_address_limit - 1;

std::vector<option_spec> tma_wgmma_options() {
  return {
      {"type", "element type (required; sets TMA's element size too)", 0, 0, 0, type_words, "bf16"},
      {"tma-swizzle", "TMA's swizzle mode (required)", 0, 0, 0, swizzle_words, "none"},
      {"oob-fill", "TMA's out-of-bounds fill", 0, 0, 0, {"zero", "nan"}, "zero"},
      {"smem-base", "shared-memory destination of the TMA box, bytes", 0, 0, addr_max},
      {"operand", "which wgmma operand (required)", 0, 0, 0, {"A", "B"}, "A"},
      {"n", "N of the B operand (A is always m64)", 64, 8, 256},
      {"major", "the operand's major-ness (required): k (imm-trans 0) or mn (imm-trans 1, 16-bit types only)", 0, 0, 0,
       {"k", "mn"}, "k"},
      {"swizzle", "the descriptor's swizzle mode (layout type; required unless --descriptor)", 0, 0, 0, swizzle_words,
       "none"},
      {"lbo", "leading dimension byte offset (16 where unused, as the PTX ISA assumes)", 16, 0, addr_max},
      {"sbo", "stride dimension byte offset (required unless --descriptor)", 0, 0, addr_max},
      {"base-offset", "the descriptor's base offset (0..7)", 0, 0, 7},
      {"start", "the descriptor's start address; -1: smem base + the operand's first element, unswizzled", -1, -1,
       addr_max},
      {"k-at", "the operand's first K index in the box (along --k-dims)", 0, 0, 1 << 20},
      {"mn-at", "the operand's first M/N index in the box (along --mn-dims)", 0, 0, 1 << 20},
  };
}

// "64,64" -> {64, 64}; each piece strictly an integer.
std::vector<index_t> int_list(const std::string& text, const std::string& option) {
  std::vector<index_t> v;
  std::string piece;
  std::istringstream in(text);
  while (std::getline(in, piece, ',')) v.push_back(parse_int(piece, "option --" + option));
  if (v.empty() || text.back() == ',') throw usage_error("option --" + option + ": '" + text + "' is not a list N,N,...");
  return v;
}

// "0x4000004000010000" -> the value; hex digits only, at most 16.
std::uint64_t parse_hex(const std::string& text) {
  std::string h = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0 ? text.substr(2) : text;
  if (h.empty() || h.size() > 16 || h.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw usage_error("option --descriptor: '" + text + "' is not a 64-bit hexadecimal value");
  return std::stoull(h, nullptr, 16);
}

tma_swizzle swizzle_of(const std::string& w) {
  for (std::size_t i = 0; i < swizzle_words.size(); ++i)
    if (swizzle_words[i] == w) return static_cast<tma_swizzle>(i);
  return tma_swizzle::none;
}
std::string swizzle_word(tma_swizzle s) { return swizzle_words[static_cast<std::size_t>(swizzle_bits(s))]; }

std::string hex(std::uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

template <class T>
std::string list(const T* v, int n, const char* sep) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// What a field means for this operand (the PTX ISA's LBO / SBO definitions, in bytes).
std::string field_meaning(fix_field f, const tma_wgmma_pair& p, tma_swizzle s) {
  const bool k_major = p.op.major == operand_major::k, none = s == tma_swizzle::none;
  switch (f) {
    case fix_field::wgmma_swizzle: return "the descriptor's layout type must be TMA's swizzle";
    case fix_field::base_offset: return "the pattern's row phase; the PTX ISA: (pattern start >> 7) & 7, 0 on the repeat";
    case fix_field::sbo:
      return k_major ? "SBO: bytes from one 8-row group of M/N to the next"
             : none  ? "SBO: bytes from one 16-byte group of M/N to the next"
                     : "SBO: bytes from one 8-row group of K to the next";
    case fix_field::lbo:
      return k_major ? "LBO: bytes from one 16-byte core-matrix column of K to the next"
             : none  ? "LBO: bytes from one 8-row group of K to the next"
                     : "LBO: bytes from one swizzle-span-wide group of M/N to the next";
    case fix_field::lbo_sbo_swap: return "LBO and SBO swapped (their roles differ between K-major and swizzled MN-major)";
    case fix_field::start: return "the address of operand element (0, 0) before the swizzle";
    case fix_field::tma_swizzle: return "or change TMA's swizzle instead of the descriptor's";
    case fix_field::smem_base: return "the destination on the swizzle repeat; the start address moves with it";
  }
  return "";
}

const char* field_name(fix_field f) {
  switch (f) {
    case fix_field::wgmma_swizzle: return "swizzle";
    case fix_field::base_offset: return "base_offset";
    case fix_field::sbo: return "sbo";
    case fix_field::lbo: return "lbo";
    case fix_field::lbo_sbo_swap: return "lbo_sbo_swap";
    case fix_field::start: return "start";
    case fix_field::tma_swizzle: return "tma_swizzle";
    case fix_field::smem_base: return "smem_base";
  }
  return "";
}

// The options that apply a fix: "--sbo 1024".
std::string fix_options(const fix& f) {
  switch (f.field) {
    case fix_field::wgmma_swizzle: return "--swizzle " + swizzle_word(static_cast<tma_swizzle>(f.value));
    case fix_field::base_offset: return "--base-offset " + std::to_string(f.value);
    case fix_field::sbo: return "--sbo " + std::to_string(f.value);
    case fix_field::lbo: return "--lbo " + std::to_string(f.value);
    case fix_field::lbo_sbo_swap: return "--lbo " + std::to_string(f.value) + " --sbo " + std::to_string(f.value2);
    case fix_field::start: return "--start " + std::to_string(f.value);
    case fix_field::tma_swizzle: return "--tma-swizzle " + swizzle_word(static_cast<tma_swizzle>(f.value));
    case fix_field::smem_base: return "--smem-base " + std::to_string(f.value) + " --start " + std::to_string(f.value2);
  }
  return "";
}

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else o += c;
  }
  return o + "\"";
}

std::string fix_json(const fix& f, const tma_wgmma_pair& p) {
  return "{\"field\": \"" + std::string(field_name(f.field)) + "\", \"options\": " + json_string(fix_options(f)) +
         ", \"why\": " + json_string(field_meaning(f.field, p, p.desc.swizzle)) + "}";
}

// Reads the options into a pairing; bad input throws (usage_error or spec_error: exit 2).
tma_wgmma_pair pairing_from(std::vector<std::string> args) {
  const std::optional<std::string> box = take_text_option(args, "box");
  const std::optional<std::string> gdims = take_text_option(args, "global-dims");
  const std::optional<std::string> gstrides = take_text_option(args, "global-strides");
  const std::optional<std::string> estrides = take_text_option(args, "elem-strides");
  const std::optional<std::string> box_at = take_text_option(args, "box-at");
  const std::optional<std::string> kdims = take_text_option(args, "k-dims");
  const std::optional<std::string> mndims = take_text_option(args, "mn-dims");
  const std::optional<std::string> desc = take_text_option(args, "descriptor");
  const options o = parse_options(args, tma_wgmma_options(), "tma-wgmma");
  for (const char* required : {"type", "tma-swizzle", "operand", "major"})
    if (!o.given(required)) throw usage_error(std::string("tma-wgmma needs --") + required);
  if (!box) throw usage_error("tma-wgmma needs --box (box dims, innermost first: --box 64,64)");
  if (desc) {
    for (const char* f : {"swizzle", "lbo", "sbo", "base-offset", "start"})
      if (o.given(f)) throw usage_error(std::string("--descriptor and --") + f + " exclude each other");
  } else {
    for (const char* required : {"swizzle", "sbo"})
      if (!o.given(required)) throw usage_error(std::string("tma-wgmma needs --") + required + " (or --descriptor)");
  }
  if (o.given("n") && o.word("operand") == "A") throw usage_error("--n applies to --operand B only (A is m64)");

  tma_wgmma_pair p;
  const std::vector<index_t> b = int_list(*box, "box");
  if (b.size() > static_cast<std::size_t>(tma_max_rank))
    throw usage_error("option --box: " + std::to_string(b.size()) + " dims, TMA allows rank 1..5");
  const int rank = static_cast<int>(b.size());
  const auto per_dim = [&](const std::optional<std::string>& text, const char* name, std::size_t want) {
    std::vector<index_t> v = int_list(*text, name);
    if (v.size() != want)
      throw usage_error(std::string("option --") + name + ": " + std::to_string(v.size()) + " values, the box has rank " +
                        std::to_string(rank) + " (expected " + std::to_string(want) + ")");
    return v;
  };
  p.map.rank = rank;
  p.map.elem_bytes = elem_bytes(static_cast<wgmma_type>(std::find(type_words.begin(), type_words.end(), o.word("type")) -
                                                         type_words.begin()));
  p.op.type = static_cast<wgmma_type>(std::find(type_words.begin(), type_words.end(), o.word("type")) - type_words.begin());
  for (int d = 0; d < rank; ++d) p.map.box_dims[d] = p.map.global_dims[d] = b[d];
  if (gdims) {
    const std::vector<index_t> g = per_dim(gdims, "global-dims", rank);
    for (int d = 0; d < rank; ++d) p.map.global_dims[d] = g[d];
  }
  index_t packed = p.map.elem_bytes;
  for (int d = 1; d < rank; ++d) p.map.global_strides[d] = packed *= p.map.global_dims[d - 1];
  if (gstrides) {
    const std::vector<index_t> s = per_dim(gstrides, "global-strides", rank - 1);
    for (int d = 1; d < rank; ++d) p.map.global_strides[d] = s[d - 1];
  }
  if (estrides) {
    const std::vector<index_t> e = per_dim(estrides, "elem-strides", rank);
    for (int d = 0; d < rank; ++d) p.map.elem_strides[d] = e[d];
  }
  if (box_at) {
    const std::vector<index_t> c = per_dim(box_at, "box-at", rank);
    for (int d = 0; d < rank; ++d) p.corner[d] = c[d];
  }
  p.map.swizzle = swizzle_of(o.word("tma-swizzle"));
  p.map.fill = o.word("oob-fill") == "nan" ? oob_fill::nan : oob_fill::zero;
  p.smem_base = o.integer("smem-base");
  require(p.map.check());

  p.op.is_b = o.word("operand") == "B";
  p.op.n = o.integer("n");
  p.op.major = o.word("major") == "mn" ? operand_major::mn : operand_major::k;
  require(p.op.check());
  p.mapping = default_mapping(p.op.major, rank);
  const auto dims = [&](const std::optional<std::string>& text, const char* name, int* out, int& n) {
    const std::vector<index_t> v = int_list(*text, name);
    if (v.size() > static_cast<std::size_t>(rank)) throw usage_error(std::string("option --") + name + ": more dims than the rank");
    n = static_cast<int>(v.size());
    for (int i = 0; i < n; ++i) out[i] = static_cast<int>(v[i] < 0 || v[i] > 4 ? 99 : v[i]);
  };
  if (kdims) dims(kdims, "k-dims", p.mapping.k_dims, p.mapping.n_k);
  if (mndims) dims(mndims, "mn-dims", p.mapping.mn_dims, p.mapping.n_mn);
  p.mapping.k_at = o.integer("k-at");
  p.mapping.mn_at = o.integer("mn-at");

  if (desc) {
    const std::uint64_t bits = parse_hex(*desc);
    if (bits & descriptor_reserved_bits)
      throw usage_error("option --descriptor: " + hex(bits) + " sets reserved bits " + hex(bits & descriptor_reserved_bits) +
                        " (14-15, 30-31, 46-48, 52-61 must be 0)");
    p.desc = decode_descriptor(bits);
  } else {
    p.desc.swizzle = swizzle_of(o.word("swizzle"));
    p.desc.lbo = o.integer("lbo");
    p.desc.sbo = o.integer("sbo");
    p.desc.base_offset = static_cast<int>(o.integer("base-offset"));
    p.desc.start = o.integer("start");
  }
  if (p.desc.start < 0) {  // checked first so that natural_start() reads a mapping inside the box
    p.desc.start = 0;
    require(p.check());
    p.desc.start = p.natural_start();
  }
  require(p.check());
  return p;
}

}  // namespace

void print_tma_wgmma_help(std::ostream& out) {
  out << "usage: tilesim tma-wgmma --type T --box B0,B1,... --tma-swizzle S --operand A|B --major k|mn\n"
         "                         (--swizzle S --sbo N [--lbo N] [--base-offset N] [--start N] | --descriptor HEX)\n"
         "                         [TMA and mapping options] [--json]\n"
         "\n"
         "Proves over the whole operand tile that every element wgmma reads (through the shared-memory matrix\n"
         "descriptor) is the element the TMA box put there (cp.async.bulk.tensor, tiled, with the swizzle), and that\n"
         "the destination obeys the alignment rules; or prints the first element that is not (operand coordinates,\n"
         "box and global coordinates, both byte addresses) and the fixes: every one-field change (descriptor\n"
         "swizzle, base offset, SBO, LBO, LBO/SBO swap, start address, TMA swizzle, destination) that makes all\n"
         "elements right, each searched over the field's whole range. spec/hopper/ holds the model and its sources.\n"
         "\n"
         "TMA box (dims innermost first, as cuTensorMapEncodeTiled takes them):\n"
         "  --box B0,B1,...          box dims, rank 1..5 (required)\n"
         "  --global-dims D0,...     the tensor's dims (default: the box)\n"
         "  --global-strides S1,...  byte strides of dims 1..rank-1 (default: packed)\n"
         "  --elem-strides E0,...    element strides 1..8 (default: 1s)\n"
         "  --box-at G0,...          the box corner's global coordinates (default: 0s; outside elements are the fill)\n"
         "wgmma operand and its place in the box:\n"
         "  --k-dims D,...           box dims that carry K, first fastest (default: 0 for k-major, 1 for mn-major)\n"
         "  --mn-dims D,...          box dims that carry M/N (default: the others)\n"
         "  --descriptor HEX         the 64-bit descriptor instead of --swizzle --lbo --sbo --base-offset --start\n"
         "  --json                   print the verdict as one JSON object\n"
         "options:\n";
  for (const option_spec& s : tma_wgmma_options()) out << "  " << s.synopsis() << "\n      " << s.help << '\n';
  out << "\n"
         "model (unmeasured where the PTX ISA is silent): TMA packs the loaded box densely (dim 0 fastest) and XORs\n"
         "byte bits [4,4+B) with [7,7+B) (CuTe Swizzle<B,4,3>, B = 1, 2, 3 for 32B, 64B, 128B) of the offset from the\n"
         "destination; wgmma reads start + the PTX ISA's canonical layout, XOR-ed the same way with rows counted from\n"
         "the base offset. Alignment: the destination 128-byte aligned and, with swizzle, on the pattern's repeat\n"
         "(256/512/1024 bytes).\n"
         "\n"
         "exit codes:\n"
         "  0  consistent\n"
         "  1  not consistent (the first differing element or the broken alignment rule, and the fixes), or an\n"
         "     internal error\n"
         "  2  bad input: an unknown or missing option, a malformed list, a tensor map the driver would refuse, a\n"
         "     descriptor field out of range, an operand that leaves the box; one line on stderr \"tilesim: error: \"\n";
}

int run_tma_wgmma_command(const std::vector<std::string>& all) {
  for (const std::string& a : all)
    if (a == "--help" || a == "-h") {
      print_tma_wgmma_help(std::cout);
      return 0;
    }
  std::vector<std::string> args = all;
  const bool json = take_flag(args, "json");
  const tma_wgmma_pair p = pairing_from(args);
  const violation align = alignment_of(p);
  const element_check e = first_mismatch(p);
  const bool ok = !align && e.ok;
  const fix_list fixes = ok ? fix_list{} : find_fixes(p);
  const index_t elements = p.op.rows() * p.op.k_elems(), fill = fill_elements(p);
  index_t global[tma_max_rank] = {};
  for (int d = 0; d < p.map.rank; ++d) global[d] = p.corner[d] + e.index.v[d] * p.map.elem_strides[d];
  const std::string shape = (p.op.is_b ? "n" + std::to_string(p.op.n) : std::string("m64")) + " x k" +
                            std::to_string(p.op.k_elems());
  const std::string type = type_words[static_cast<std::size_t>(p.op.type)];

  if (json) {
    std::cout << "{\"schema\": \"tilesim.tma-wgmma/1\", \"consistent\": " << (ok ? "true" : "false")
              << ", \"operand\": \"" << (p.op.is_b ? "B" : "A") << "\", \"shape\": \"" << shape << "\", \"type\": \""
              << type << "\", \"major\": \"" << (p.op.major == operand_major::k ? "k" : "mn") << "\", \"elements\": "
              << elements << ", \"fill_elements\": " << fill << ",\n \"descriptor\": \"" << hex(p.desc.encode())
              << "\", \"start\": " << p.desc.start << ", \"lbo\": " << p.desc.lbo << ", \"sbo\": " << p.desc.sbo
              << ", \"base_offset\": " << p.desc.base_offset << ", \"swizzle\": \"" << swizzle_word(p.desc.swizzle)
              << "\", \"tma_swizzle\": \"" << swizzle_word(p.map.swizzle) << "\", \"smem_base\": " << p.smem_base
              << ",\n \"alignment\": " << (align ? json_string(spec_error::format(align).substr(9)) : "null")
              << ",\n \"first_mismatch\": ";
    if (e.ok) std::cout << "null";
    else
      std::cout << "{\"mn\": " << e.mn << ", \"k\": " << e.k << ", \"box_index\": [" << list(e.index.v, p.map.rank, ", ")
                << "], \"global\": [" << list(global, p.map.rank, ", ") << "], \"tma_address\": " << e.tma_address
                << ", \"wgmma_address\": " << e.wgmma_address << "}";
    std::cout << ",\n \"fixes\": [";
    for (int i = 0; i < fixes.count; ++i) std::cout << (i ? ", " : "") << fix_json(fixes.items[i], p);
    std::cout << "],\n \"fix_pair\": ";
    if (fixes.has_pair) std::cout << "[" << fix_json(fixes.pair[0], p) << ", " << fix_json(fixes.pair[1], p) << "]";
    else std::cout << "null";
    std::cout << "}\n";
    return ok ? 0 : 1;
  }

  std::cout << "tma-wgmma: operand " << (p.op.is_b ? "B" : "A") << " (" << shape << ", " << type << ", "
            << (p.op.major == operand_major::k ? "K" : "MN") << "-major) read by wgmma from a TMA box\n";
  index_t loaded[tma_max_rank];
  for (int d = 0; d < p.map.rank; ++d) loaded[d] = p.map.loaded(d);
  std::cout << "  TMA: rank " << p.map.rank << ", box " << list(p.map.box_dims, p.map.rank, " x ") << " (loaded "
            << list(loaded, p.map.rank, " x ") << "), " << p.map.elem_bytes << "-byte elements, swizzle "
            << swizzle_word(p.map.swizzle) << "; " << p.map.box_bytes() << " bytes at smem " << p.smem_base << "\n";
  std::cout << "  operand: K on box dims " << list(p.mapping.k_dims, p.mapping.n_k, ",")
            << " from " << p.mapping.k_at << ", M/N on box dims "
            << list(p.mapping.mn_dims, p.mapping.n_mn, ",")
            << " from " << p.mapping.mn_at << (fill ? "; " + std::to_string(fill) + " elements are the fill" : "") << "\n";
  std::cout << "  descriptor " << hex(p.desc.encode()) << ": start " << p.desc.start << ", LBO " << p.desc.lbo
            << (lbo_used(p.op, p.desc.swizzle) ? "" : " (unused)") << ", SBO " << p.desc.sbo
            << (sbo_used(p.op, p.desc.swizzle) ? "" : " (unused)") << ", base offset " << p.desc.base_offset
            << ", swizzle " << swizzle_word(p.desc.swizzle) << "\n";
  if (align) std::cout << "  alignment: FAILS: " << spec_error::format(align).substr(9) << "\n";
  else
    std::cout << "  alignment: smem base " << p.smem_base << " is a multiple of " << swizzle_repeat(p.map.swizzle)
              << (p.map.swizzle == tma_swizzle::none ? "" : " (the " + swizzle_word(p.map.swizzle) + " repeat)") << ": ok\n";
  if (ok) {
    std::cout << "consistent: all " << elements << " elements wgmma reads are the elements TMA put there\n";
    return 0;
  }
  if (e.ok) std::cout << "elements: all " << elements << " elements wgmma reads are the elements TMA put there\n";
  else
    std::cout << "NOT consistent: element (mn " << e.mn << ", k " << e.k << ") = box (" << list(e.index.v, p.map.rank, ", ")
              << ") = global (" << list(global, p.map.rank, ", ") << "): TMA put it at byte " << e.tma_address
              << ", wgmma reads byte " << e.wgmma_address << "\n";
  for (int i = 0; i < fixes.count; ++i)
    std::cout << "  fix: " << fix_options(fixes.items[i]) << "  (" << field_meaning(fixes.items[i].field, p, p.desc.swizzle)
              << ")\n";
  if (fixes.has_pair)
    std::cout << "  fix (two fields together): " << fix_options(fixes.pair[0]) << " " << fix_options(fixes.pair[1]) << "\n";
  if (!fixes.count && !fixes.has_pair) std::cout << "  no one-field fix found (nor a swizzle with SBO, LBO or start)\n";
  return 1;
}

}  // namespace tilesim::cli
