// tilesim/gpu/rtc_props/rtc_include/tilesim_rtc_std.hpp: the C++ standard library as NVRTC sees tilesim's headers.
//
// DEFINITION. NVRTC compiles device code with no host C++ library: `#include <utility>` finds nothing. This
// folder is given to NVRTC as an include path (gpu/rtc_props/rtc_compiler.cpp), ahead of libcu++ (CUDA's
// include/cccl). Each file named like a standard header (utility, type_traits, cstdint, ...) includes this
// one, which
//   * maps the few std names the device path uses to libcu++: `namespace std { using namespace cuda::std; }`
//     after <cuda/std/{cstddef,cstdint,utility,type_traits,concepts,tuple}> (std::move, std::forward and
//     std::initializer_list are NVRTC builtins, found first by qualified lookup);
//   * declares, without defining, what only host-side text mentions: std::string, std::to_string,
//     std::runtime_error, std::invalid_argument (cpp(), error messages). Under -default-device NVRTC treats
//     every unannotated function as a device function and generates only those a kernel calls, so a
//     declaration is all these need; a kernel that called one would fail to compile (no definition), which is
//     the point: the device path must not.
//   * spells three GCC builtins NVRTC lacks (__builtin_nanf, __builtin_inff, __builtin_memcpy) through libcu++
//     and CUDA's device memcpy.
// rtc_include/gpu/runtime/hip_runtime.hpp stands in for the host runtime layer gpu/runtime/device_context.hpp includes (it comes
// first on the include path, so device_context.hpp's "gpu/runtime/hip_runtime.hpp" finds it).
// nvcc and the host compilers never see this folder: their behaviour is unchanged.
//
// WORKED EXAMPLE. spec/constant.hpp's `#include <utility>` opens rtc_include/utility, which includes this file;
// `std::make_integer_sequence<index_t, 4>` then names cuda::std::make_integer_sequence.
//
// INVARIANTS: only declarations here, no device code of its own; every name is one spec/, kernel/model/program.hpp
// or gpu/ headers use (grep -ohE 'std::[a-z_0-9]+' lists them).
#pragma once

#if !defined(__CUDACC_RTC__)
#error "gpu/rtc_props/rtc_include is for NVRTC only"
#endif

#include <cuda/std/concepts>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

namespace std {
using namespace cuda::std;

// Host-only text (cpp(), error messages): declared, never generated.
class string {
 public:
  using size_type = unsigned long;
  static constexpr size_type npos = static_cast<size_type>(-1);
  string();
  string(const char*);
  string(const char*, size_type);
  string(size_type, char);
  string(const string&);
  string& operator=(const string&);
  ~string();
  string& operator+=(const string&);
  string& operator+=(const char*);
  string& operator+=(char);
  const char* c_str() const;
  const char* data() const;
  size_type size() const;
  size_type length() const;
  bool empty() const;
  char& operator[](size_type);
  const char& operator[](size_type) const;
  char& back();
  void pop_back();
  void push_back(char);
  string substr(size_type, size_type = npos) const;
  size_type find(const string&, size_type = 0) const;
  size_type find(char, size_type = 0) const;
  size_type rfind(const string&, size_type = npos) const;
  size_type rfind(char, size_type = npos) const;
  string& append(const string&);
  string& append(size_type, char);
  void resize(size_type, char = ' ');
  int compare(const string&) const;
};
string operator+(const string&, const string&);
string operator+(const string&, const char*);
string operator+(const char*, const string&);
string operator+(const string&, char);
string operator+(char, const string&);
bool operator==(const string&, const string&);
bool operator!=(const string&, const string&);
bool operator<(const string&, const string&);
string to_string(int);
string to_string(long);
string to_string(long long);
string to_string(unsigned);
string to_string(unsigned long);
string to_string(unsigned long long);
string to_string(double);

class exception {
 public:
  virtual ~exception();
  virtual const char* what() const noexcept;
};
class runtime_error : public exception {
 public:
  explicit runtime_error(const string&);
  explicit runtime_error(const char*);
};
class logic_error : public exception {
 public:
  explicit logic_error(const string&);
  explicit logic_error(const char*);
};
class invalid_argument : public logic_error {
 public:
  explicit invalid_argument(const string&);
  explicit invalid_argument(const char*);
};
class out_of_range : public logic_error {
 public:
  explicit out_of_range(const string&);
  explicit out_of_range(const char*);
};
}  // namespace std

// GCC/Clang builtins the device path names that NVRTC lacks (kernel/model/mma.hpp, gpu/runtime/device_context.hpp,
// gpu/runtime/vector_access.hpp): the same meaning through libcu++ and CUDA's device memcpy.
#include <cuda/std/limits>
#define __builtin_nanf(s) (::cuda::std::numeric_limits<float>::quiet_NaN())
#define __builtin_inff() (::cuda::std::numeric_limits<float>::infinity())
#define __builtin_memcpy(d, s, n) ::memcpy((d), (s), (n))
