// tilesim/cli/encodings.cpp: `tilesim encoding` (see encodings.hpp): the registry of built-in encodings, the
// parser of CK's spelling, the text explanation and the SVG drawing.
//
// Order of work: parse everything, build the encoding (spec/ checks it), check the launch, compute every
// thread's elements and the load/store traits, render the text and the SVG into strings; only then is the
// SVG file written (through a temporary file renamed over the target, so an existing file is replaced only
// by a complete new one) and the text printed. Any failure before that leaves stdout and the file untouched.
#include "cli/encodings.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>

#include "util/output_file.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/window/load_store_traits.hpp"

namespace tilesim::cli {
namespace {

using enc = tile_distribution_encoding;

constexpr index_t side_max = index_t{1} << 20;
constexpr index_t max_tile_elements = index_t{1} << 20;  // Π X lengths
constexpr index_t max_held_elements = index_t{1} << 22;  // Π P lengths * elements per thread
constexpr index_t max_launch = index_t{1} << 20;         // --threads, and what an encoding may need
constexpr index_t max_svg_cells = index_t{1} << 16;

std::string num(index_t v) { return std::to_string(v); }

// a * b, or INT64_MAX when it would overflow (both >= 0).
index_t saturating_mul(index_t a, index_t b) {
  if (a != 0 && b > INT64_MAX / a) return INT64_MAX;
  return a * b;
}

// "<4, 1, 16>" from n values.
template <class F>
std::string angle_list(int n, F&& value) {
  std::string s = "<";
  for (int k = 0; k < n; ++k) s += (k ? ", " : "") + num(value(k));
  return s + ">";
}

// "(0, 0..7)": a tuple of n entries, entry `run_dim` written as lo..lo+run-1 when run > 1.
template <class F>
std::string tuple_text(int n, F&& value, int run_dim = -1, index_t run = 1) {
  std::string s = "(";
  for (int k = 0; k < n; ++k) {
    s += k ? ", " : "";
    s += num(value(k));
    if (k == run_dim && run > 1) s += ".." + num(value(k) + run - 1);
  }
  return s + ")";
}

// "H1[0]" or "R[0]".
std::string component_name(rh c) { return (c.major == 0 ? "R[" : "H" + num(c.major - 1) + "[") + num(c.minor) + "]"; }

std::string right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// ---------------------------------------------------------------------------------------------------------
// The registry.

option_spec int_option(std::string name, std::string help, std::int64_t def, std::int64_t min, std::int64_t max) {
  return option_spec{std::move(name), std::move(help), def, min, max};
}

const char* raking_name(raking k) {
  switch (k) {
    case raking::thread:
      return "thread_raked";
    case raking::warp:
      return "warp_raked";
    case raking::block:
      break;
  }
  return "block_raked";
}

built_encoding build_pattern(const options& o, raking kind) {
  const raked_pattern p{
      kind, o.integer("threads"), o.integer("warp-size"), o.integer("rows"), o.integer("cols"), o.integer("vec-size")};
  built_encoding b{p.encoding(), {}, p.threads};  // throws spec_error when a split is not exact
  const std::string factory = kind == raking::thread ? "make_thread_raked_encoding"
                              : kind == raking::warp ? "make_warp_raked_encoding"
                                                     : "make_block_raked_encoding";
  const index_t x0 = p.x0(), rpw = p.rows_per_warp(), w = p.warps(), it = p.iterations();
  b.about.push_back(std::string("CK's ") + raking_name(kind) + " 2-D pattern (static_encoding_pattern.hpp; " + factory +
                    "): BlockSize " + num(p.threads) + ", warp size " + num(p.warp_size) + ", YPerTile " + num(p.rows) +
                    " x XPerTile " + num(p.cols) + ", VecSize " + num(p.vector));
  // CK 2025 clamps the vector to the elements each thread holds (patterns.hpp, SOURCE AND LIMITS).
  const std::string x1 = p.x1() == p.vector ? "X1 = VecSize = " + num(p.vector)
                                            : "X1 = min(VecSize " + num(p.vector) + ", rows*cols/threads = " +
                                                  num(p.largest_vector()) + ") = " + num(p.x1()) + " (CK 2025 clamps)";
  b.about.push_back(x1 + "; X0 = cols/X1 = " + num(x0) + " lanes per row; rows per warp = warp size/X0 = " + num(rpw) +
                    "; warps = " + num(p.threads) + "/" + num(p.warp_size) + " = " + num(w) + "; iterations = rows/(" +
                    num(rpw) + "*" + num(w) + ") = " + num(it));
  const std::string lane_row = "lane/" + num(x0), col = "col = " + num(p.x1()) + "*(lane%" + num(x0) + ") + y1";
  std::string row;
  switch (kind) {
    case raking::thread:  // H0 = <warps, rows_per_warp, iterations>
      row = num(rpw * it) + "*warp + " + num(it) + "*(" + lane_row + ") + y0  (a thread's rows are adjacent)";
      break;
    case raking::warp:  // H0 = <warps, iterations, rows_per_warp>
      row = num(it * rpw) + "*warp + " + num(rpw) + "*y0 + " + lane_row + "  (a warp's rows are adjacent)";
      break;
    case raking::block:  // H0 = <iterations, warps, rows_per_warp>
      row = num(w * rpw) + "*y0 + " + num(rpw) + "*warp + " + lane_row + "  (one pass covers the whole block)";
      break;
  }
  b.about.push_back("row = " + row + ", " + col);
  return b;
}

built_encoding fixed_encoding(const enc& e, std::vector<std::string> about) { return {e, std::move(about), 0}; }

std::vector<encoding_entry> make_registry() {
  auto pattern = [](raking kind, std::string name, std::string summary) {
    return encoding_entry{
        std::move(name),
        std::move(summary),
        {int_option("threads", "BlockSize: threads in the block, also the launch", 256, 1, max_launch),
         int_option("rows", "YPerTile: rows of the tile (x0)", 64, 1, side_max),
         int_option("cols", "XPerTile: columns of the tile (x1), contiguous in memory", 32, 1, side_max),
         int_option("vec-size",
                    "VecSize: elements per access along cols; X1 = min(VecSize, rows*cols/threads) is the vector Y's "
                    "length (CK 2025)",
                    8, 1, side_max)},
        [kind](const options& o) { return build_pattern(o, kind); }};
  };
  return {
      {"docs-4x4",
       "the CK docs' 2-D example on a 4 x 4 tile (reference §3.3): x0 = 2*warp + y0, x1 = 2*lane + y1",
       {},
       [](const options&) {
         return fixed_encoding(make_docs_4x4_encoding(),
                               {"the CK docs' 4 x 4 example (ck-tile-semantics.md §3.3; make_docs_4x4_encoding)",
                                "x0 = 2*warp + y0, x1 = 2*lane + y1, d = 2*y0 + y1; the docs launch 2 warps, so "
                                "lanes 2.. of each warp are extra threads"});
       }},
      pattern(raking::warp, "warp-raked",
              "CK's warp_raked pattern (reference §3.4): each warp owns adjacent rows; the GEMM operand default"),
      pattern(raking::block, "block-raked",
              "CK's block_raked pattern: one pass of the whole block covers adjacent rows"),
      pattern(raking::thread, "thread-raked", "CK's thread_raked pattern: each thread's iterations are adjacent rows"),
      {"copy-r",
       "CK's memory_copy test encoding with R = <2> (reference §3.5): warps 0,2 and 1,3 hold the same elements",
       {},
       [](const options&) {
         return fixed_encoding(make_replicated_copy_encoding(),
                               {"CK's memory_copy test encoding with replication R = <2> (ck-tile-semantics.md §3.5; "
                                "make_replicated_copy_encoding)",
                                "P0 = merge(R[0], H0[0]): warp w has r0 = w/2, so warps 0,2 and 1,3 hold the same "
                                "elements of the 32 x 64 tile"});
       }},
      {"mfma-32x32x8-a",
       "the MFMA 32x32x8 fp16 A operand, one warp (reference §3.6): lane l, y holds A[l%32][4*(l/32) + y]",
       {},
       [](const options&) {
         return fixed_encoding(make_mfma_32x32x8_a_encoding(),
                               {"MFMA 32x32x8 fp16 A operand, M x K = 32 x 8, one warp, P0 = lane "
                                "(ck-tile-semantics.md §3.6; make_mfma_32x32x8_a_encoding)",
                                "lane l, y holds A[m = l%32][k = 4*(l/32) + y]; lane 32, y = 0 holds A(0, 4)"});
       }},
      {"mfma-32x32x8-c",
       "the MFMA 32x32x8 accumulator, one warp (reference §3.6): c[4i+j] of lane l is C[8i + 4*(l/32) + j][l%32]",
       {},
       [](const options&) {
         return fixed_encoding(make_mfma_32x32x8_c_encoding(),
                               {"MFMA 32x32x8 accumulator, M x N = 32 x 32, one warp, P0 = lane (ck-tile-semantics.md "
                                "§3.6; make_mfma_32x32x8_c_encoding)",
                                "c[4i + j] of lane l is C[m = 8i + 4*(l/32) + j][n = l%32]; c[15] of lane 63 is "
                                "C(31, 31)"});
       }},
  };
}

// Options every encoding accepts (a pattern's own --threads replaces the first). --encoding, --svg and
// --vector take free text and are read before these (take_text_option).
std::vector<option_spec> common_options() {
  return {
      int_option("threads", "threads launched; 0: what P needs (P0 warps x warp size; one warp when NDimP = 1)", 0, 0,
                 max_launch),
      int_option("warp-size", "lanes per warp: 64 on gfx9 (CDNA), 32 on gfx11/12 (RDNA); the patterns use it too", 64,
                 1, 1024),
      {"order",
       "the order of a thread's accesses: linear (CK 2025) or snake (CK 2024)",
       0,
       0,
       0,
       {"linear", "snake"},
       "linear"},
      int_option("max-threads", "rows of the thread table, 0: all", 64, 0, max_launch),
      int_option("max-accesses", "accesses (columns) of the thread table, 0: all", 16, 0, max_held_elements),
      int_option("max-extra", "extra threads (beyond P) listed, 0: all", 8, 0, max_launch),
  };
}

std::vector<option_spec> specs_for(const encoding_entry* entry) {
  std::vector<option_spec> specs = entry ? entry->params : std::vector<option_spec>{};
  for (option_spec& s : common_options()) {
    bool own = false;
    for (const option_spec& p : specs) own = own || p.name == s.name;
    if (!own) specs.push_back(std::move(s));
  }
  return specs;
}

// ---------------------------------------------------------------------------------------------------------
// CK's spelling.

struct token {
  enum class kind { name, number, open, close, comma, brace_open, brace_close, end } k;
  std::string text;
  std::size_t column;  // 1-based
};

// A character as shown in an error: 'x', or \xNN when it is not printable ASCII.
std::string shown_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", u);
  return buf;
}

class ck_parser {
 public:
  explicit ck_parser(std::string_view text) : text_(text) { tokenize(); }

  // encoding := tile_distribution_encoding '<' seq ',' tuple ',' tuple ',' tuple ',' seq ',' seq '>' ['{' '}']
  enc parse() {
    expect_name("tile_distribution_encoding", "tile_distribution_encoding<...>");
    expect(token::kind::open, "'<' after tile_distribution_encoding");
    const std::vector<index_t> rs = sequence("RsLengths");
    comma("RsLengths");
    const std::vector<std::vector<index_t>> hs = tuple_of_sequences("HsLengthss");
    comma("HsLengthss");
    const std::vector<std::vector<index_t>> pm = tuple_of_sequences("Ps2RHssMajor");
    comma("Ps2RHssMajor");
    const std::vector<std::vector<index_t>> pn = tuple_of_sequences("Ps2RHssMinor");
    comma("Ps2RHssMinor");
    const std::vector<index_t> ym = sequence("Ys2RHsMajor");
    comma("Ys2RHsMajor");
    const std::vector<index_t> yn = sequence("Ys2RHsMinor");
    expect(token::kind::close, "'>' closing tile_distribution_encoding after its 6 arguments");
    if (peek().k == token::kind::brace_open) {
      ++at_;
      expect(token::kind::brace_close, "'}' after '{'");
    }
    expect(token::kind::end, "the end of the text");
    return build(rs, hs, pm, pn, ym, yn);
  }

 private:
  std::string_view text_;
  std::vector<token> tokens_;
  std::size_t at_ = 0;

  [[noreturn]] void fail_at(std::size_t column, const std::string& what) const {
    const std::size_t i = column - 1, from = i > 24 ? i - 24 : 0;
    std::string near(text_.substr(from, std::min<std::size_t>(text_.size() - std::min(from, text_.size()), 40)));
    for (char& c : near)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    throw usage_error("--encoding: column " + std::to_string(column) + ": " + what + " (near \"" +
                      (from > 0 ? "..." : "") + near + (from + 40 < text_.size() ? "..." : "") + "\")");
  }
  [[noreturn]] void fail(const token& t, const std::string& expected) const {
    fail_at(t.column, "expected " + expected + ", found " +
                          (t.k == token::kind::end ? std::string("the end of the text") : "'" + t.text + "'"));
  }

  void tokenize() {
    std::size_t i = 0;
    auto is_name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
    while (i < text_.size()) {
      const char c = text_[i];
      const std::size_t column = i + 1;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < text_.size() && is_name_char(text_[j])) ++j;
        tokens_.push_back({token::kind::name, std::string(text_.substr(i, j - i)), column});
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
        std::size_t j = i + 1;  // the digits, and any letters glued to them ("2u"), which make it no integer
        while (j < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_')) ++j;
        tokens_.push_back({token::kind::number, std::string(text_.substr(i, j - i)), column});
        i = j;
      } else {
        token::kind k;
        switch (c) {
          case '<':
            k = token::kind::open;
            break;
          case '>':
            k = token::kind::close;
            break;
          case ',':
            k = token::kind::comma;
            break;
          case '{':
            k = token::kind::brace_open;
            break;
          case '}':
            k = token::kind::brace_close;
            break;
          default:
            fail_at(column, "unexpected character " + shown_char(c));
        }
        tokens_.push_back({k, std::string(1, c), column});
        ++i;
      }
    }
    tokens_.push_back({token::kind::end, "", text_.size() + 1});
  }

  const token& peek() const { return tokens_[at_]; }
  const token& expect(token::kind k, const std::string& expected) {
    if (peek().k != k) fail(peek(), expected);
    return tokens_[at_++];
  }
  void comma(const std::string& after) { expect(token::kind::comma, "',' after " + after); }
  // `name` or `ck_tile::name`.
  void expect_name(const std::string& name, const std::string& expected) {
    const token& t = peek();
    if (t.k != token::kind::name || (t.text != name && t.text != "ck_tile::" + name)) fail(t, expected);
    ++at_;
  }

  index_t integer(const std::string& param) {
    const token& t = peek();
    if (t.k != token::kind::number) fail(t, "an integer in " + param);
    index_t v = 0;
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec == std::errc::result_out_of_range) fail_at(t.column, "'" + t.text + "' does not fit in a 64-bit integer");
    if (ec != std::errc{} || end != t.text.data() + t.text.size()) fail(t, "an integer in " + param);
    ++at_;
    return v;
  }

  // sequence<a, b, ...>
  std::vector<index_t> sequence(const std::string& param) {
    expect_name("sequence", "sequence<...> (" + param + ")");
    expect(token::kind::open, "'<' after sequence");
    std::vector<index_t> v;
    if (peek().k == token::kind::close) {
      ++at_;
      return v;
    }
    for (;;) {
      v.push_back(integer(param));
      if (peek().k == token::kind::close) {
        ++at_;
        return v;
      }
      expect(token::kind::comma, "',' or '>' in a sequence of " + param);
    }
  }

  // tuple<sequence<...>, ...>
  std::vector<std::vector<index_t>> tuple_of_sequences(const std::string& param) {
    expect_name("tuple", "tuple<sequence<...>, ...> (" + param + ")");
    expect(token::kind::open, "'<' after tuple");
    std::vector<std::vector<index_t>> v;
    if (peek().k == token::kind::close) {
      ++at_;
      return v;
    }
    for (;;) {
      v.push_back(sequence(param));
      if (peek().k == token::kind::close) {
        ++at_;
        return v;
      }
      expect(token::kind::comma, "',' or '>' in the tuple " + param);
    }
  }

  // A major or minor as an int; spec/ then says whether it names a component.
  static int rh_part(index_t v, const std::string& param) {
    if (v < INT_MIN || v > INT_MAX) throw usage_error("--encoding: " + param + " value " + num(v) + " is out of range");
    return static_cast<int>(v);
  }

  static enc build(const std::vector<index_t>& rs, const std::vector<std::vector<index_t>>& hs,
                   const std::vector<std::vector<index_t>>& pm, const std::vector<std::vector<index_t>>& pn,
                   const std::vector<index_t>& ym, const std::vector<index_t>& yn) {
    if (pm.size() != pn.size())
      throw usage_error("--encoding: Ps2RHssMajor lists " + std::to_string(pm.size()) + " P dims but Ps2RHssMinor " +
                        std::to_string(pn.size()));
    for (std::size_t p = 0; p < pm.size(); ++p)
      if (pm[p].size() != pn[p].size())
        throw usage_error("--encoding: P" + std::to_string(p) + " has " + std::to_string(pm[p].size()) +
                          " majors (Ps2RHssMajor) but " + std::to_string(pn[p].size()) + " minors (Ps2RHssMinor)");
    if (ym.size() != yn.size())
      throw usage_error("--encoding: Ys2RHsMajor has " + std::to_string(ym.size()) + " entries but Ys2RHsMinor " +
                        std::to_string(yn.size()));
    // Empty lists are named as such (spec/'s capacity rule would call them "too many components").
    if (hs.empty()) throw usage_error("--encoding: there is no X dim (the tuple of Hs is empty)");
    for (std::size_t i = 0; i < hs.size(); ++i)
      if (hs[i].empty()) throw usage_error("--encoding: X" + std::to_string(i) + "'s H sequence is empty (sequence<>)");
    for (std::size_t p = 0; p < pm.size(); ++p)
      if (pm[p].empty()) throw usage_error("--encoding: P" + std::to_string(p) + " is empty (sequence<> in Ps2RHssMajor)");
    const auto count = [](std::size_t n) { return static_cast<index_t>(n); };
    constexpr std::size_t cap = enc::max_components;
    if (pm.size() > enc::max_p)
      require(broken_unless(false, rule::encoding_p_count, "encoding", {"P dims", count(pm.size())}));
    require(broken_unless(rs.size() <= cap && hs.size() <= enc::max_x && ym.size() <= enc::max_y,
                          rule::encoding_too_large, "encoding", {"R", count(rs.size())}, {"X", count(hs.size())},
                          {"P", count(pm.size())}, {"Y", count(ym.size())}));
    for (std::size_t i = 0; i < hs.size(); ++i)
      require(broken_unless(hs[i].size() <= cap, rule::encoding_too_large, "encoding", {"X dim", count(i)},
                            {"H components", count(hs[i].size())}));
    for (std::size_t p = 0; p < pm.size(); ++p)
      require(broken_unless(pm[p].size() <= cap, rule::encoding_too_large, "encoding", {"P", count(p)},
                            {"components", count(pm[p].size())}));
    enc e{};
    e.n_r = static_cast<int>(rs.size());
    for (std::size_t k = 0; k < rs.size(); ++k) e.r[k] = rs[k];
    e.n_x = static_cast<int>(hs.size());
    for (std::size_t i = 0; i < hs.size(); ++i) {
      e.n_h[i] = static_cast<int>(hs[i].size());
      for (std::size_t j = 0; j < hs[i].size(); ++j) e.h[i][j] = hs[i][j];
    }
    e.n_p = static_cast<int>(pm.size());
    for (std::size_t p = 0; p < pm.size(); ++p) {
      e.p_size[p] = static_cast<int>(pm[p].size());
      for (std::size_t k = 0; k < pm[p].size(); ++k)
        e.p[p][k] = {rh_part(pm[p][k], "Ps2RHssMajor"), rh_part(pn[p][k], "Ps2RHssMinor")};
    }
    e.n_y = static_cast<int>(ym.size());
    for (std::size_t j = 0; j < ym.size(); ++j) e.y[j] = {rh_part(ym[j], "Ys2RHsMajor"), rh_part(yn[j], "Ys2RHsMinor")};
    require(e.check());
    return e;
  }
};

// ---------------------------------------------------------------------------------------------------------
// The explanation: everything computed once, then rendered as text and SVG.

struct settings {
  index_t threads = 0, warp_size = 64;
  index_t vector = unknown;  // the view's guaranteed vector length on the last X dim, stride 1
  access_order order = access_order::linear;
  index_t max_threads = 64, max_accesses = 16, max_extra = 8;
};

struct explanation {
  std::string title;     // "warp-raked" or "given with --encoding"
  std::string svg_name;  // "warp-raked" or "--encoding TEXT"
  std::vector<std::string> about;
  enc e;
  settings s;
  index_t threads = 0;  // the launch
  index_t warps_p = 1, lanes_p = 1, p_threads = 1, per_thread = 1, tile = 1;
  index_t x_len[enc::max_x] = {};
  load_store_traits traits;
  int vector_x = -1;                          // the X dim the vector runs along (when scalars_per_vector > 1)
  std::vector<index_t> held;                  // held[k * per_thread + d]: linear tile index of P thread k's element d
  std::vector<index_t> replica_of;            // the first P thread with the same elements, or -1
  std::vector<int> owners;                    // per tile element: how many P threads hold it
  std::vector<index_t> first_owner, first_d;  // per tile element: the first P thread holding it, at which d
  bool replicated = false;

  multi_index<enc::max_p> ps_of(index_t warp, index_t lane) const {
    return e.n_p == 2 ? multi_index<enc::max_p>{warp, lane} : multi_index<enc::max_p>{lane, 0};
  }
  index_t warp_of(index_t k) const { return e.n_p == 2 ? k / lanes_p : 0; }
  index_t lane_of(index_t k) const { return e.n_p == 2 ? k % lanes_p : k; }
  // Row-major index in the tile, or -1 when x lies outside it.
  index_t linear(const multi_index<enc::max_x>& x) const {
    index_t l = 0;
    for (int i = 0; i < e.n_x; ++i) {
      if (x[i] < 0 || x[i] >= x_len[i]) return -1;
      l = l * x_len[i] + x[i];
    }
    return l;
  }
  // The y of element k of access a.
  multi_index<enc::max_y> access_y(index_t a, index_t k) const {
    multi_index<enc::max_y> y = traits.first_y(a);
    y[traits.vector_dim_y] += k;
    return y;
  }
};

explanation explain(const enc& e, const settings& s) {
  explanation x;
  x.e = e;
  x.s = s;
  std::string lengths;
  for (int i = 0; i < e.n_x; ++i) {
    x.x_len[i] = e.x_length(i);
    x.tile = saturating_mul(x.tile, x.x_len[i]);
    lengths += (i ? " x " : "") + num(x.x_len[i]);
  }
  if (x.tile > max_tile_elements)
    throw usage_error("the tile (X lengths " + lengths + ") has more than " + num(max_tile_elements) +
                      " elements (2^20), the limit");
  x.warps_p = e.n_p == 2 ? e.p_length(0) : 1;
  x.lanes_p = e.p_length(e.n_p - 1);
  x.threads = s.threads > 0 ? s.threads : e.n_p == 2 ? saturating_mul(x.warps_p, s.warp_size) : s.warp_size;
  if (x.threads > max_launch)
    throw usage_error("the encoding needs " + num(x.threads) + " threads (" + num(x.warps_p) + " warps of " +
                      num(s.warp_size) + "), more than the limit of " + num(max_launch) + " (2^20)");
  require(e.check_launch(x.threads, s.warp_size));
  x.p_threads = x.warps_p * x.lanes_p;
  x.per_thread = e.elements_per_thread();
  if (x.p_threads * x.per_thread > max_held_elements)
    throw usage_error("the " + num(x.p_threads) + " threads of P hold " + num(x.p_threads * x.per_thread) +
                      " elements in all (R replicates them), more than the limit of " + num(max_held_elements) +
                      " (2^22)");

  vector_guarantees<enc::max_x> g{};
  if (s.vector != unknown) g[e.n_x - 1] = {s.vector, 1};
  x.traits = make_load_store_traits(e, g, s.order);
  if (x.traits.scalars_per_vector > 1) x.vector_x = e.y[x.traits.vector_dim_y].major - 1;

  const auto tile = static_cast<std::size_t>(x.tile);
  x.held.resize(static_cast<std::size_t>(x.p_threads * x.per_thread));
  x.replica_of.assign(static_cast<std::size_t>(x.p_threads), -1);
  x.owners.assign(tile, 0);
  x.first_owner.assign(tile, -1);
  x.first_d.assign(tile, -1);
  std::map<std::vector<index_t>, index_t> first_with;
  for (index_t k = 0; k < x.p_threads; ++k) {
    const auto ps = x.ps_of(x.warp_of(k), x.lane_of(k));
    std::vector<index_t> mine(static_cast<std::size_t>(x.per_thread));
    for (index_t d = 0; d < x.per_thread; ++d) {
      const index_t l = x.linear(e.x_of(ps, e.y_of(d)));
      mine[static_cast<std::size_t>(d)] = l;
      x.held[static_cast<std::size_t>(k * x.per_thread + d)] = l;
      if (l < 0) continue;  // impossible for a valid encoding; counted as uncovered below
      const auto at = static_cast<std::size_t>(l);
      if (x.owners[at]++ == 0) {
        x.first_owner[at] = k;
        x.first_d[at] = d;
      }
    }
    const auto [it, fresh] = first_with.emplace(std::move(mine), k);
    if (!fresh) {
      x.replica_of[static_cast<std::size_t>(k)] = it->second;
      x.replicated = true;
    }
  }
  return x;
}

// "(3, 1)" of P thread or thread (warp, lane): "(0, 5)"; a 1-P encoding shows the lane only.
std::string thread_label(const explanation& x, index_t warp, index_t lane) {
  return x.e.n_p == 2 ? "(" + num(warp) + ", " + num(lane) + ")" : "lane " + num(lane);
}

// The cell of one access: x of its first element, the vector dim as lo..hi.
std::string access_cell(const explanation& x, const multi_index<enc::max_p>& ps, index_t a) {
  const auto first = x.e.x_of(ps, x.access_y(a, 0));
  return tuple_text(
      x.e.n_x, [&](int i) { return first[i]; }, x.vector_x, x.traits.scalars_per_vector);
}

// "d = 8*y0 + y1".
std::string d_formula(const enc& e) {
  if (e.n_y == 0) return "d = 0";
  std::string s = "d = ";
  index_t stride = 1;
  std::vector<std::string> terms;
  for (int j = e.n_y - 1; j >= 0; --j) {
    terms.push_back((stride == 1 ? "" : num(stride) + "*") + "y" + num(j));
    stride *= e.y_length(j);
  }
  for (std::size_t t = terms.size(); t-- > 0;) s += terms[t] + (t ? " + " : "");
  return s;
}

// "4 x 64 = 256".
template <class F>
std::string product_text(int n, F&& value) {
  std::string s;
  index_t p = 1;
  for (int k = 0; k < n; ++k) {
    s += (k ? " x " : "") + num(value(k));
    p *= value(k);
  }
  return n > 1 ? s + " = " + num(p) : (n == 1 ? s : "1");
}

void describe_encoding(std::ostream& out, const explanation& x) {
  const enc& e = x.e;
  out << e.ck_spelling() << '\n';
  if (e.n_r > 0) {
    index_t r = 1;
    for (int k = 0; k < e.n_r; ++k) r *= e.r[k];
    out << "  R = " << angle_list(e.n_r, [&](int k) { return e.r[k]; })
        << (r == 1 ? ": length 1, no replication"
                   : ": replication, part of no X; threads that differ only in R hold the same elements")
        << '\n';
  }
  for (int i = 0; i < e.n_x; ++i)
    out << "  X" << i << ": H" << i << " = " << angle_list(e.n_h[i], [&](int j) { return e.h[i][j]; }) << ", length "
        << x.x_len[i] << '\n';
  for (int p = 0; p < e.n_p; ++p) {
    std::string comps;
    for (int k = 0; k < e.p_size[p]; ++k) comps += (k ? ", " : "") + component_name(e.p[p][k]);
    const bool lane = p == e.n_p - 1;
    out << "  P" << p << (lane ? " (lane)" : " (warp)") << " = " << (e.p_size[p] > 1 ? "merge(" + comps + ")" : comps)
        << ": length " << product_text(e.p_size[p], [&](int k) { return e.length_of(e.p[p][k]); }) << '\n';
  }
  for (int j = 0; j < e.n_y; ++j)
    out << "  Y" << j << " = " << component_name(e.y[j]) << ": length " << e.y_length(j) << '\n';
  out << "  X lengths " << product_text(e.n_x, [&](int i) { return x.x_len[i]; }) << " elements; P lengths "
      << product_text(e.n_p, [&](int p) { return e.p_length(p); }) << " threads; Y lengths "
      << (e.n_y == 0 ? "none, 1 element" : product_text(e.n_y, [&](int j) { return e.y_length(j); }) + " elements")
      << " per thread (" << d_formula(e) << ")\n";
}

void describe_launch(std::ostream& out, const explanation& x) {
  const index_t ws = x.s.warp_size, warps = (x.threads + ws - 1) / ws;
  out << "launch: " << x.threads << " threads in warps of " << ws << " (" << warps << (warps == 1 ? " warp" : " warps")
      << (x.threads % ws ? ", the last one partial" : "") << "); P needs ";
  if (x.e.n_p == 2)
    out << x.warps_p << " warps x " << x.lanes_p << " lanes";
  else
    out << x.lanes_p << " lanes of one warp (NDimP = 1: P0 = lane, every warp holds the same elements)";
  const index_t extra = x.threads - x.p_threads;
  out << ": ok" << (extra == 0 ? ", no thread beyond P" : ", " + num(extra) + " extra threads (listed below)") << '\n';
}

void describe_traits(std::ostream& out, const explanation& x) {
  const enc& e = x.e;
  const int last = e.n_x - 1;
  const load_store_traits& t = x.traits;
  out << "load/store traits (";
  if (x.s.vector == unknown)
    out << "--vector unknown: X" << last << " states no vector guarantee, as a packed view without one";
  else
    out << "--vector " << x.s.vector << ": X" << last << " guarantees " << x.s.vector
        << " consecutive elements at stride 1";
  out << "; --order " << (x.s.order == access_order::snake ? "snake" : "linear") << "):\n";
  int y_last = -1;  // the Y on X(last)'s last H component, the only one that can vectorize
  for (int j = 0; j < e.n_y; ++j)
    if (e.y[j].major == last + 1 && e.y[j].minor == e.n_h[last] - 1) y_last = j;
  const std::string last_h = "H" + num(last) + "[" + num(e.n_h[last] - 1) + "]";
  out << "  vector Y dim: ";
  if (t.scalars_per_vector > 1) {
    out << "Y" << t.vector_dim_y << " = " << last_h << ", the last H component of X" << last << ": gcd(" << x.s.vector
        << ", " << e.y_length(t.vector_dim_y) << ") = " << t.scalars_per_vector << " scalars per vector\n";
  } else {
    out << "none, scalar accesses (CK: VectorDimY = 0, ScalarPerVector = 1): ";
    if (x.s.vector == unknown)
      out << "no guarantee; --vector N states one\n";
    else if (y_last < 0)
      out << "no Y is " << last_h << ", the last H component of X" << last << "\n";
    else
      out << "Y" << y_last << " = " << last_h << " but gcd(" << x.s.vector << ", " << e.y_length(y_last) << ") = 1\n";
  }
  out << "  accesses per thread: " << x.per_thread << (x.per_thread == 1 ? " element / " : " elements / ")
      << t.scalars_per_vector << " = " << t.num_access << "; first y of each:";
  const index_t shown = x.s.max_accesses > 0 ? std::min(x.s.max_accesses, t.num_access) : t.num_access;
  for (index_t a = 0; a < shown; ++a) {
    const auto y = t.first_y(a);
    out << ' ' << tuple_text(e.n_y, [&](int j) { return y[j]; });
  }
  if (shown < t.num_access) out << " ... (" << t.num_access - shown << " more)";
  out << '\n';
}

// The coverage line: how many P threads hold each tile element.
void describe_coverage(std::ostream& out, const explanation& x) {
  const auto [lo, hi] = std::minmax_element(x.owners.begin(), x.owners.end());
  index_t outside = 0;
  for (index_t l : x.held) outside += l < 0;
  out << "coverage: ";
  if (*lo == *hi)
    out << "each of the " << x.tile << " elements is held by exactly " << *lo << (*lo == 1 ? " thread" : " threads");
  else
    out << "the " << x.tile << " elements are held by " << *lo << ".." << *hi << " threads each";
  if (outside > 0) out << "; " << outside << " elements of P threads lie outside the tile";
  if (x.replicated) {
    index_t replicas = 0;
    for (index_t r : x.replica_of) replicas += r >= 0;
    out << "; " << replicas << " of the " << x.p_threads
        << " threads are replicas (they hold the same elements as an earlier thread: column 'replica of')";
  }
  out << '\n';
}

// One table: label columns, then one column per access, then a note column.
struct table {
  std::vector<std::string> head;  // label headers
  std::vector<std::vector<std::string>> labels, cells;
  std::vector<std::string> notes;

  void print(std::ostream& out, index_t accesses) const {
    std::vector<std::size_t> lw(head.size()), cw(static_cast<std::size_t>(accesses));
    for (std::size_t i = 0; i < head.size(); ++i) lw[i] = head[i].size();
    for (std::size_t c = 0; c < cw.size(); ++c) cw[c] = ("a" + num(static_cast<index_t>(c))).size();
    for (std::size_t r = 0; r < labels.size(); ++r) {
      for (std::size_t i = 0; i < head.size(); ++i) lw[i] = std::max(lw[i], labels[r][i].size());
      for (std::size_t c = 0; c < cw.size(); ++c) cw[c] = std::max(cw[c], cells[r][c].size());
    }
    std::string line;
    for (std::size_t i = 0; i < head.size(); ++i) line += (i ? " " : "") + right(head[i], lw[i]);
    const std::size_t label_width = line.size();
    line += " |";
    for (std::size_t c = 0; c < cw.size(); ++c) line += " " + right("a" + num(static_cast<index_t>(c)), cw[c]);
    out << line << '\n'
        << std::string(label_width + 1, '-') << '+' << std::string(line.size() - label_width - 2, '-') << '\n';
    for (std::size_t r = 0; r < labels.size(); ++r) {
      line.clear();
      for (std::size_t i = 0; i < head.size(); ++i) line += (i ? " " : "") + right(labels[r][i], lw[i]);
      line += " |";
      for (std::size_t c = 0; c < cw.size(); ++c) line += " " + right(cells[r][c], cw[c]);
      if (!notes[r].empty()) line += "  " + notes[r];
      out << line << '\n';
    }
  }
};

std::vector<std::string> label_head(const explanation& x) {
  std::vector<std::string> h;
  if (x.e.n_p == 2) h.push_back("warp");
  h.push_back("lane");
  return h;
}
std::vector<std::string> label_row(const explanation& x, index_t warp, index_t lane) {
  std::vector<std::string> l;
  if (x.e.n_p == 2) l.push_back(num(warp));
  l.push_back(num(lane));
  return l;
}

void describe_threads(std::ostream& out, const explanation& x) {
  const enc& e = x.e;
  const index_t accesses = x.s.max_accesses > 0 ? std::min(x.s.max_accesses, x.traits.num_access) : x.traits.num_access;
  const index_t rows = x.s.max_threads > 0 ? std::min(x.s.max_threads, x.p_threads) : x.p_threads;
  std::string xs;
  for (int i = 0; i < e.n_x; ++i) xs += (i ? ", x" : "x") + num(i);
  out << "threads of P: " << (e.n_p == 2 ? "(warp, lane)" : "lane") << " -> x = (" << xs << ") of each access"
      << (x.vector_x >= 0 ? ", a vector access as its run along x" + num(x.vector_x) : "") << ":\n";
  for (index_t a = 0; a < accesses; ++a) {
    std::string ds;
    for (index_t k = 0; k < x.traits.scalars_per_vector; ++k) ds += (k ? "," : "") + num(e.d_of(x.access_y(a, k)));
    if (x.traits.scalars_per_vector > 1 &&
        e.d_of(x.access_y(a, x.traits.scalars_per_vector - 1)) - e.d_of(x.access_y(a, 0)) ==
            x.traits.scalars_per_vector - 1)
      ds = num(e.d_of(x.access_y(a, 0))) + ".." + num(e.d_of(x.access_y(a, x.traits.scalars_per_vector - 1)));
    const auto y = x.traits.first_y(a);
    out << "  a" << a << ": y = "
        << tuple_text(
               e.n_y, [&](int j) { return y[j]; }, x.traits.scalars_per_vector > 1 ? x.traits.vector_dim_y : -1,
               x.traits.scalars_per_vector)
        << ", d = " << ds << '\n';
  }
  index_t r_product = 1;
  for (int k = 0; k < e.n_r; ++k) r_product *= e.r[k];
  table t;
  t.head = label_head(x);
  if (r_product > 1) t.head.push_back("r");
  for (index_t k = 0; k < rows; ++k) {
    const index_t warp = x.warp_of(k), lane = x.lane_of(k);
    const auto ps = x.ps_of(warp, lane);
    std::vector<std::string> label = label_row(x, warp, lane);
    if (r_product > 1) {
      const auto r = e.r_of(ps);
      label.push_back(e.n_r == 1 ? num(r[0]) : tuple_text(e.n_r, [&](int i) { return r[i]; }));
    }
    t.labels.push_back(std::move(label));
    std::vector<std::string> cells;
    for (index_t a = 0; a < accesses; ++a) cells.push_back(access_cell(x, ps, a));
    t.cells.push_back(std::move(cells));
    const index_t of = x.replica_of[static_cast<std::size_t>(k)];
    t.notes.push_back(of >= 0 ? "replica of " + thread_label(x, x.warp_of(of), x.lane_of(of)) : "");
  }
  t.print(out, accesses);
  if (accesses < x.traits.num_access)
    out << "(accesses a" << accesses << "..a" << x.traits.num_access - 1 << " not shown; --max-accesses 0 shows all "
        << x.traits.num_access << ")\n";
  if (rows < x.p_threads)
    out << "(" << x.p_threads - rows << " more threads of P not shown; --max-threads 0 shows all " << x.p_threads
        << ")\n";
  describe_coverage(out, x);
}

// Threads of the launch beyond P: CK does not mask them; where do they sit?
void describe_extra(std::ostream& out, const explanation& x) {
  const enc& e = x.e;
  const index_t extra = x.threads - x.p_threads;
  if (extra == 0) return;
  const index_t accesses = x.s.max_accesses > 0 ? std::min(x.s.max_accesses, x.traits.num_access) : x.traits.num_access;
  const index_t listed = x.s.max_extra > 0 ? std::min(x.s.max_extra, extra) : extra;
  out << "extra threads, not masked: " << extra << " of the " << x.threads
      << " launched threads lie beyond P and run like the others; they sit at x =";
  out << (listed < extra ? " (the first " + num(listed) + "):\n" : "\n");
  table t;
  t.head = {"warp", "lane"};
  std::map<std::vector<index_t>, index_t> by_elements;  // P threads by their elements, for "same as"
  for (index_t k = 0; k < x.p_threads; ++k)
    by_elements.emplace(
        std::vector<index_t>(x.held.begin() + k * x.per_thread, x.held.begin() + (k + 1) * x.per_thread), k);
  for (index_t thread = 0; thread < x.threads && static_cast<index_t>(t.labels.size()) < listed; ++thread) {
    const index_t warp = thread / x.s.warp_size, lane = thread % x.s.warp_size;
    const bool in_p = e.n_p == 2 ? warp < x.warps_p && lane < x.lanes_p : warp == 0 && lane < x.lanes_p;
    if (in_p) continue;
    const auto ps = x.ps_of(warp, lane);
    t.labels.push_back({num(warp), num(lane)});
    std::vector<std::string> cells;
    for (index_t a = 0; a < accesses; ++a) cells.push_back(access_cell(x, ps, a));
    t.cells.push_back(std::move(cells));
    std::vector<index_t> mine;
    index_t inside = 0;
    for (index_t d = 0; d < x.per_thread; ++d) {
      mine.push_back(x.linear(e.x_of(ps, e.y_of(d))));
      inside += mine.back() >= 0;
    }
    std::string note;
    if (inside == 0) {
      note = "outside the tile";
    } else if (inside < x.per_thread) {
      note = "partly outside the tile (" + num(inside) + " of " + num(x.per_thread) + " elements inside)";
    } else if (const auto it = by_elements.find(mine); it != by_elements.end()) {
      note = "inside the tile: the same elements as " + thread_label(x, x.warp_of(it->second), x.lane_of(it->second)) +
             (e.n_p == 1 && warp > 0 ? " (NDimP = 1 ignores the warp)" : "");
    } else {
      note = "inside the tile: elements P threads hold too";
    }
    t.notes.push_back(note);
  }
  t.print(out, accesses);
  if (listed < extra) out << "(" << extra - listed << " more not listed; --max-extra 0 lists all " << extra << ")\n";
}

std::string render_text(const explanation& x) {
  std::ostringstream out;
  out << "encoding " << x.title << (x.about.empty() ? "" : ": " + x.about[0]) << '\n';
  for (std::size_t i = 1; i < x.about.size(); ++i) out << "  " << x.about[i] << '\n';
  describe_encoding(out, x);
  describe_launch(out, x);
  describe_traits(out, x);
  describe_threads(out, x);
  describe_extra(out, x);
  return out.str();
}

// ---------------------------------------------------------------------------------------------------------
// SVG.

std::string xml_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '<':
        r += "&lt;";
        break;
      case '>':
        r += "&gt;";
        break;
      case '&':
        r += "&amp;";
        break;
      case '"':
        r += "&quot;";
        break;
      default:
        r += c;
    }
  }
  return r;
}

// A colour with components in [0, 1].
struct rgb {
  double r, g, b;
  // "#3fa2c8"
  std::string hex() const {
    char buf[8];
    auto byte = [](double v) { return static_cast<unsigned>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(r), byte(g), byte(b));
    return buf;
  }
  // Perceived brightness (Rec. 601 weights): white 1, black 0, pure yellow 0.886.
  double luma() const { return 0.299 * r + 0.587 * g + 0.114 * b; }
};

// HSL to RGB (CSS Color 3): hsl_to_rgb(120, 1, 0.5) is pure green.
rgb hsl_to_rgb(double hue, double saturation, double lightness) {
  const double c = (1 - std::fabs(2 * lightness - 1)) * saturation, h = hue / 60;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1)), m = lightness - c / 2;
  const int sector = static_cast<int>(h) % 6;
  const double parts[6][3] = {{c, x, 0}, {x, c, 0}, {0, c, x}, {0, x, c}, {x, 0, c}, {c, 0, x}};
  return {parts[sector][0] + m, parts[sector][1] + m, parts[sector][2] + m};
}

// The tile as a grid of cells, each coloured by its (first) owner: hue by lane (golden-angle steps, so
// neighbouring lanes differ), lightness by warp; labelled warp:lane over d; vector accesses boxed. Geometry is
// in whole pixels and repeated styles are CSS classes, to keep the file small (about 150 bytes per cell).
std::string render_svg(const explanation& x) {
  const enc& e = x.e;
  const index_t rows = x.x_len[0], cols = x.x_len[1];
  auto owner_label = [&](index_t k) {
    return e.n_p == 2 ? num(x.warp_of(k)) + ":" + num(x.lane_of(k)) : num(x.lane_of(k));
  };
  auto d_label = [&](std::size_t at) {
    return "d" + num(x.first_d[at]) + (x.owners[at] > 1 ? " \u00d7" + num(x.owners[at]) : "");
  };
  std::size_t label_chars = 3;
  for (std::size_t at = 0; at < static_cast<std::size_t>(x.tile); ++at) {
    if (x.first_owner[at] < 0) continue;
    label_chars = std::max({label_chars, owner_label(x.first_owner[at]).size(), d_label(at).size()});
  }
  const index_t cw = std::max<index_t>(26, static_cast<index_t>(6 * label_chars) + 4), ch = 24, margin = 10;
  const index_t left = margin + 7 * static_cast<index_t>(num(rows - 1).size()) + 8;
  std::vector<std::string> title = {
      "tilesim encoding " + x.svg_name + ": X " + num(rows) + " x " + num(cols) + " (x0 down, x1 across); " +
          num(x.p_threads) + " threads of P (" +
          (e.n_p == 2 ? num(x.warps_p) + " warps x " + num(x.lanes_p) + " lanes" : num(x.lanes_p) + " lanes") + "), " +
          num(x.per_thread) + " elements each",
      "cell: " + std::string(e.n_p == 2 ? "warp:lane" : "lane") +
          " of the owner over d, its register index; colour: hue by lane, lightness by warp" +
          (x.traits.scalars_per_vector > 1
               ? "; black boxes: one vector access (" + num(x.traits.scalars_per_vector) + " scalars)"
               : "; scalar accesses"),
      e.ck_spelling()};
  if (x.replicated)
    title.push_back("\u00d7N, dashed: the element is held by N threads (R replication); the cell names the first");
  const index_t top = margin + 16 * static_cast<index_t>(title.size()) + 20;
  std::size_t widest = 0;
  for (const std::string& t : title) widest = std::max(widest, t.size());
  const index_t width = std::max(left + cw * cols + margin, 2 * margin + 7 * static_cast<index_t>(widest));
  const index_t height = top + ch * rows + margin;

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
    << width << ' ' << height << "\" font-family=\"monospace\">\n"
    << "<title>" << xml_escape(title[0]) << "</title>\n"
    << "<style>.cell{stroke:#ffffff;stroke-width:1}.rep{stroke:#000000;stroke-dasharray:3 2}"
       ".vec{fill:none;stroke:#000000;stroke-width:1.5}text{font-size:9px;text-anchor:middle}.w{fill:#ffffff}"
       ".head{font-size:11px;text-anchor:start}.idx{fill:#555555}.row{fill:#555555;text-anchor:end}</style>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (std::size_t i = 0; i < title.size(); ++i)
    s << "<text class=\"head\" x=\"" << margin << "\" y=\"" << margin + 12 + 16 * static_cast<index_t>(i) << "\">"
      << xml_escape(title[i]) << "</text>\n";
  for (index_t c = 0; c < cols; ++c)
    s << "<text class=\"idx\" x=\"" << left + cw * c + cw / 2 << "\" y=\"" << top - 6 << "\">" << c << "</text>\n";
  for (index_t r = 0; r < rows; ++r)
    s << "<text class=\"row\" x=\"" << left - 6 << "\" y=\"" << top + ch * r + 15 << "\">" << r << "</text>\n";
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      const auto at = static_cast<std::size_t>(r * cols + c);
      const index_t cx = left + cw * c, cy = top + ch * r, k = x.first_owner[at];
      s << "<rect class=\"cell" << (x.owners[at] > 1 ? " rep" : "") << "\" x=\"" << cx << "\" y=\"" << cy
        << "\" width=\"" << cw << "\" height=\"" << ch << "\" fill=\"";
      if (k < 0) {  // held by no thread of P: impossible for a valid encoding, drawn grey all the same
        s << "#dddddd\"/>\n";
        continue;
      }
      const double hue = std::fmod(static_cast<double>(x.lane_of(k)) * 137.508, 360.0);
      const double light =
          x.warps_p > 1 ? 0.8 - 0.4 * static_cast<double>(x.warp_of(k)) / static_cast<double>(x.warps_p - 1) : 0.7;
      const rgb fill = hsl_to_rgb(hue, 0.7, light);
      const std::string ink = fill.luma() >= 0.55 ? "" : " class=\"w\"";  // black ink on light cells
      s << fill.hex() << "\"/>\n<text" << ink << " x=\"" << cx + cw / 2 << "\" y=\"" << cy + 10 << "\">"
        << owner_label(k) << "</text><text" << ink << " x=\"" << cx + cw / 2 << "\" y=\"" << cy + 20 << "\">"
        << d_label(at) << "</text>\n";
    }
  if (x.traits.scalars_per_vector > 1)  // the vector X is x1: each access covers that many adjacent columns
    for (index_t k = 0; k < x.p_threads; ++k) {
      if (x.replica_of[static_cast<std::size_t>(k)] >= 0) continue;
      const auto ps = x.ps_of(x.warp_of(k), x.lane_of(k));
      for (index_t a = 0; a < x.traits.num_access; ++a) {
        const auto first = e.x_of(ps, x.access_y(a, 0));
        s << "<rect class=\"vec\" x=\"" << left + cw * first[1] << "\" y=\"" << top + ch * first[0] << "\" width=\""
          << cw * x.traits.scalars_per_vector << "\" height=\"" << ch << "\"/>\n";
      }
    }
  s << "</svg>\n";
  return s.str();
}

// ---------------------------------------------------------------------------------------------------------
// Command line.

}  // namespace

const std::vector<encoding_entry>& encodings() {
  static const std::vector<encoding_entry> registry = make_registry();
  return registry;
}

const encoding_entry* find_encoding(std::string_view name) {
  for (const encoding_entry& e : encodings())
    if (e.name == name) return &e;
  return nullptr;
}

std::string encoding_names() {
  std::string s;
  for (const encoding_entry& e : encodings()) s += (s.empty() ? "" : " ") + e.name;
  return s;
}

tile_distribution_encoding parse_ck_encoding(std::string_view text) { return ck_parser(text).parse(); }

void print_encoding_help(std::ostream& out) {
  out << "usage: tilesim encoding NAME [--option VALUE | --option=VALUE]...\n"
         "       tilesim encoding --encoding TEXT [options]\n"
         "\n"
         "Explains a CK Tile tile distribution encoding: which thread (warp, lane) holds which tile element x at\n"
         "each of its per-thread indices y (register d), and how a tile window loads it (load_store_traits).\n"
         "Prints: the encoding in CK's spelling; its X, P and Y lengths and elements per thread; the launch check;\n"
         "the vector Y dim, scalars per vector, accesses per thread and their order (first y of each access); a\n"
         "table with one row per thread of P and one column per access (a vector access shows its run, lo..hi);\n"
         "the coverage (how many threads hold each element; replicas under R); and the launched threads beyond P,\n"
         "which CK does not mask, with where they sit.\n"
         "\n"
         "built-in encodings and their own options:\n";
  for (const encoding_entry& e : encodings()) {
    out << "  " << e.name << ": " << e.summary << '\n';
    for (const option_spec& s : e.params) out << "      " << s.synopsis() << "  " << s.help << '\n';
  }
  out << "  (the patterns need vec-size | cols, cols/vec-size | warp-size, warp-size | threads and\n"
         "   threads/(cols/vec-size) | rows, as CK's static_asserts do; VecSize is taken as given)\n"
         "\n"
         "--encoding TEXT: an encoding in CK's own spelling, as CK source writes it and as the output prints it:\n"
         "    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>,\n"
         "        sequence<2>>, tuple<sequence<0>, sequence<0>>, sequence<1, 2>, sequence<1, 1>>\n"
         "  = <RsLengths, tuple<HsLengths of each X>, tuple<Ps2RHssMajor>, tuple<Ps2RHssMinor>, Ys2RHsMajor,\n"
         "     Ys2RHsMinor>; RH major 0 = R, major i+1 = H of X i; minor = position. Whitespace is free, any name may\n"
         "  carry a ck_tile:: prefix, a trailing {} is ignored; quote the text for the shell. A NAME argument that\n"
         "  contains '<' is taken as TEXT. A malformed text is reported with its column; an invalid encoding with\n"
         "  the rule spec/ checks (a P or Y naming no component, a component named twice or never, ...).\n"
         "\n"
         "options (every encoding):\n";
  for (const option_spec& s : common_options()) out << "      " << s.synopsis() << "  " << s.help << '\n';
  out << "      --vector N|unknown (default unknown)  the view's guaranteed vector length on the last X dim, stride 1\n"
         "          (what the tensor view guarantees, not the pattern's VecSize); unknown: no guarantee, so accesses\n"
         "          are scalar, like a packed view without a stated guarantee. A Y vectorizes only when it is the\n"
         "          last H component of the last X: gcd(N, its length) scalars.\n"
         "      --svg FILE  also draw the tile (2-D X only) as an SVG grid, each cell coloured by its owning thread\n"
         "          and labelled warp:lane over d; written only when everything else succeeded, replacing FILE whole\n"
         "\n"
         "limits: tiles up to 2^20 elements, launches up to 2^20 threads, SVG grids up to 2^16 cells.\n"
         "exit codes: 0 success; 2 bad command line, malformed or invalid encoding, a launch with too few threads\n"
         "  for P, an unwritable --svg FILE (one line on stderr starting \"tilesim: error: \"); 1 internal error.\n";
}

int run_encoding(const std::vector<std::string>& args_in) {
  for (const std::string& a : args_in)
    if (a == "--help" || a == "-h") {
      print_encoding_help(std::cout);
      return 0;
    }
  std::vector<std::string> args = args_in;
  std::optional<std::string> text = take_text_option(args, "encoding");
  const std::optional<std::string> svg_path = take_text_option(args, "svg");
  const std::optional<std::string> vector_text = take_text_option(args, "vector");
  const encoding_entry* entry = nullptr;
  if (!args.empty() && args[0].rfind("--", 0) != 0) {
    if (text) throw usage_error("give a NAME or --encoding TEXT, not both (got '" + args[0] + "' and --encoding)");
    if (args[0].find('<') != std::string::npos) {
      text = args[0];
    } else {
      entry = find_encoding(args[0]);
      if (!entry) throw usage_error("unknown encoding '" + args[0] + "' (known: " + encoding_names() + ")");
    }
    args.erase(args.begin());
  } else if (!text) {
    throw usage_error("encoding needs a NAME or --encoding TEXT (names: " + encoding_names() + ")");
  }
  const options o = parse_options(args, specs_for(entry), entry ? "encoding " + entry->name : "encoding --encoding");

  settings s;
  s.warp_size = o.integer("warp-size");
  s.order = o.word("order") == "snake" ? access_order::snake : access_order::linear;
  s.max_threads = o.integer("max-threads");
  s.max_accesses = o.integer("max-accesses");
  s.max_extra = o.integer("max-extra");
  if (vector_text && *vector_text != "unknown") {
    try {
      s.vector = parse_int(*vector_text, "option --vector");
    } catch (const usage_error&) {
      throw usage_error("option --vector: '" + *vector_text + "' is neither an integer nor 'unknown'");
    }
    if (s.vector < 1 || s.vector > side_max)
      throw usage_error("option --vector must be unknown or in [1, " + num(side_max) + "] (got " + num(s.vector) + ")");
  }
  built_encoding b = entry ? entry->build(o) : built_encoding{parse_ck_encoding(*text), {}, 0};
  s.threads = b.threads > 0 ? b.threads : o.integer("threads");

  explanation x = explain(b.encoding, s);
  x.title = entry ? entry->name : "given with --encoding";
  x.svg_name = entry ? entry->name : "--encoding TEXT";
  x.about = std::move(b.about);
  const std::string report = render_text(x);
  if (svg_path) {
    if (x.e.n_x != 2)
      throw usage_error("--svg draws 2-D tiles only; this encoding has " + num(x.e.n_x) +
                        (x.e.n_x == 1 ? " X dim" : " X dims"));
    if (x.tile > max_svg_cells)
      throw usage_error("--svg: the tile has " + num(x.tile) + " cells, more than the limit of " + num(max_svg_cells) +
                        " (2^16)");
    write_file_replacing(*svg_path, render_svg(x), "--svg");
  }
  std::cout << report;
  return 0;
}

}  // namespace tilesim::cli
