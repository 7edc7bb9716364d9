// tilesim/sim/pricing/exact_sum.cpp: the wide fixed-point accumulator, its rounding and its text form.
#include "sim/pricing/exact_sum.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace tilesim::sim {

namespace {

constexpr int bias = 1074;  // limb bit 0 is 2^-1074

using digits = std::array<std::uint64_t, 70>;

// Bit i of a carried number (limbs < 2^32).
bool bit_at(const digits& d, int i) { return (d[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1u; }

// Index of the highest set bit of a carried number, -1 when zero.
int top_bit(const digits& d) {
  for (int l = static_cast<int>(d.size()) - 1; l >= 0; --l)
    if (d[static_cast<std::size_t>(l)]) return l * 32 + 63 - __builtin_clzll(d[static_cast<std::size_t>(l)]);
  return -1;
}

// -1, 0, 1 as a < b, a == b, a > b (carried numbers).
int compare(const digits& a, const digits& b) {
  for (int l = static_cast<int>(a.size()) - 1; l >= 0; --l)
    if (a[static_cast<std::size_t>(l)] != b[static_cast<std::size_t>(l)])
      return a[static_cast<std::size_t>(l)] < b[static_cast<std::size_t>(l)] ? -1 : 1;
  return 0;
}

// a - b for carried a >= b.
digits subtract(const digits& a, const digits& b) {
  digits r{};
  std::uint64_t borrow = 0;
  for (std::size_t l = 0; l < a.size(); ++l) {
    const std::uint64_t need = b[l] + borrow;
    borrow = a[l] < need;
    r[l] = (a[l] + (borrow << 32) - need) & 0xffffffffu;
  }
  return r;
}

// A carried non-negative number times 2^-1074, rounded to the nearest double (ties to even).
double round_to_double(const digits& d) {
  const int top = top_bit(d);
  if (top < 0) return 0.0;
  std::uint64_t mantissa = 0;
  const int low = top >= 52 ? top - 52 : 0;
  for (int i = top; i >= low; --i) mantissa = (mantissa << 1) | bit_at(d, i);
  if (low > 0) {
    const bool round = bit_at(d, low - 1);
    bool sticky = false;
    for (int i = low - 2; i >= 0 && !sticky; --i) sticky = bit_at(d, i);
    if (round && (sticky || (mantissa & 1u))) ++mantissa;  // 2^53 after a carry is still exact in a double
  }
  return std::ldexp(static_cast<double>(mantissa), low - bias);
}

}  // namespace

void exact_sum::add(double x) {
  if (!std::isfinite(x)) {
    non_finite_ += x;
    has_non_finite_ = true;
    return;
  }
  if (x == 0) return;
  int e = 0;
  const double f = std::frexp(std::fabs(x), &e);  // |x| = f * 2^e, f in [0.5, 1)
  auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
  int offset = e - 53 + bias;
  while (offset < 0) {  // subnormals: the bits shifted out are zeros
    m >>= 1;
    ++offset;
  }
  const int shift = offset % 32;
  const std::uint64_t low = m << shift;  // bits 0-63 of m * 2^shift (m < 2^53, shift < 32: at most 85 bits)
  digits& d = x > 0 ? positive_ : negative_;
  const auto l = static_cast<std::size_t>(offset / 32);
  d[l] += low & 0xffffffffu;
  d[l + 1] += low >> 32;
  d[l + 2] += shift ? m >> (64 - shift) : 0;
  if (++pending_ >= (1u << 30)) normalize();
}

void exact_sum::carry(digits& d) {
  for (std::size_t l = 0; l + 1 < d.size(); ++l) {
    d[l + 1] += d[l] >> 32;
    d[l] &= 0xffffffffu;
  }
}

void exact_sum::normalize() {
  carry(positive_);
  carry(negative_);
  pending_ = 0;
}

void exact_sum::merge(const exact_sum& other) {
  exact_sum o = other;
  o.normalize();
  normalize();
  for (std::size_t l = 0; l < positive_.size(); ++l) {
    positive_[l] += o.positive_[l];
    negative_[l] += o.negative_[l];
  }
  pending_ = 1;
  if (o.has_non_finite_) {
    non_finite_ += o.non_finite_;
    has_non_finite_ = true;
  }
}

double exact_sum::value() const {
  exact_sum c = *this;
  c.normalize();
  const int order = compare(c.positive_, c.negative_);
  const double finite = order == 0  ? 0.0
                        : order > 0 ? round_to_double(subtract(c.positive_, c.negative_))
                                    : -round_to_double(subtract(c.negative_, c.positive_));
  return has_non_finite_ ? non_finite_ + finite : finite;
}

bool exact_sum::operator==(const exact_sum& other) const { return text() == other.text(); }

std::string exact_sum::text() const {
  exact_sum c = *this;
  c.normalize();
  // Positive and negative parts cancel: keep only their difference.
  const int order = compare(c.positive_, c.negative_);
  const digits diff = order >= 0 ? subtract(c.positive_, c.negative_) : subtract(c.negative_, c.positive_);
  std::string digits_text;
  for (std::size_t l = 0; l < diff.size(); ++l) {
    if (!diff[l]) continue;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%zu:%llx", digits_text.empty() ? "" : ",", l,
                  static_cast<unsigned long long>(diff[l]));
    digits_text.append(buf);
  }
  std::string s = digits_text.empty() ? std::string("0") : (order < 0 ? "-" : "") + digits_text;
  if (c.has_non_finite_) s.append(std::isnan(c.non_finite_) ? ";nan" : c.non_finite_ > 0 ? ";inf" : ";-inf");
  return s;
}

exact_sum exact_sum::parse(const std::string& text) {
  auto bad = [&]() { return std::invalid_argument("exact sum: '" + text + "' is not an exact sum's text"); };
  exact_sum r;
  std::string body = text;
  if (const std::size_t semi = text.find(';'); semi != std::string::npos) {
    const std::string tail = text.substr(semi + 1);
    body = text.substr(0, semi);
    r.has_non_finite_ = true;
    if (tail == "nan") r.non_finite_ = std::nan("");
    else if (tail == "inf") r.non_finite_ = HUGE_VAL;
    else if (tail == "-inf") r.non_finite_ = -HUGE_VAL;
    else throw bad();
  }
  if (body == "0") return r;
  const bool negative = !body.empty() && body[0] == '-';
  digits& d = negative ? r.negative_ : r.positive_;
  std::size_t at = negative ? 1 : 0;
  long previous = -1;
  while (at < body.size()) {
    const std::size_t comma = body.find(',', at);
    const std::string token = body.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const std::size_t colon = token.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == token.size()) throw bad();
    char* end = nullptr;
    const long limb = std::strtol(token.c_str(), &end, 10);
    if (end != token.c_str() + colon || limb <= previous || limb >= limbs) throw bad();
    const unsigned long long digit = std::strtoull(token.c_str() + colon + 1, &end, 16);
    if (*end != '\0' || digit == 0 || digit > 0xffffffffull || token[colon + 1] == '-' || token[colon + 1] == '+')
      throw bad();
    d[static_cast<std::size_t>(limb)] = digit;
    previous = limb;
    if (comma == std::string::npos) break;
    at = comma + 1;
    if (at == body.size()) throw bad();
  }
  if (previous < 0) throw bad();
  return r;
}

}  // namespace tilesim::sim
