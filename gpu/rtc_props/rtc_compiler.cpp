// tilesim/gpu/rtc_props/rtc_compiler.cpp: NVRTC and nvcc back ends, the module cache, ptxas -v parsing.
#include "gpu/rtc_props/rtc_compiler.hpp"

#include <dlfcn.h>
#include <nvrtc.h>  // types and prototypes only: the library is loaded when first needed (nvrtc() below)
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <type_traits>

#include "gpu/rtc_props/cubin_info.hpp"
#include "gpu/rtc_props/kernel_source.hpp"

#ifndef TILESIM_SOURCE_ROOT
#define TILESIM_SOURCE_ROOT "."
#endif

namespace tilesim::gpu::props {
namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

// Writes through a temporary name and a rename, so parallel workers never see half a file.
void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(getpid()) + "_" +
                          std::to_string(std::hash<std::string>{}(text) & 0xffffff);
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
  }
  std::rename(tmp.c_str(), path.c_str());
}

// NVRTC, loaded on first use (dlopen), so that tilesim-gpu starts, and its other commands run, where
// libnvrtc.so.13 is missing: the binary's rpath (the toolkit it was built with, /usr/local/cuda/lib64), then
// the loader's own search. `error` says why it is not there.
struct nvrtc_api {
  std::string error;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcVersion) version = nullptr;
};

const nvrtc_api& nvrtc() {
  static const nvrtc_api api = [] {
    nvrtc_api a;
    void* lib = nullptr;
    for (const char* name : {"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13", "libnvrtc.so"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) {
      const char* why = dlerror();
      a.error = std::string("cannot load NVRTC (libnvrtc.so.13): ") + (why ? why : "not found");
      return a;
    }
    auto bind = [&](auto& f, const char* symbol) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, symbol));
      if (!f && a.error.empty()) a.error = std::string("NVRTC has no ") + symbol;
    };
    bind(a.create, "nvrtcCreateProgram");
    bind(a.compile, "nvrtcCompileProgram");
    bind(a.log_size, "nvrtcGetProgramLogSize");
    bind(a.log, "nvrtcGetProgramLog");
    bind(a.cubin_size, "nvrtcGetCUBINSize");
    bind(a.cubin, "nvrtcGetCUBIN");
    bind(a.destroy, "nvrtcDestroyProgram");
    bind(a.error_string, "nvrtcGetErrorString");
    bind(a.version, "nvrtcVersion");
    return a;
  }();
  return api;
}

std::vector<std::string> nvrtc_options(const rtc_options& o) {
  return {"-std=c++20", "-arch=" + o.arch, "-default-device", "-Xptxas=-v",
          "--include-path=" + o.root + "/gpu/rtc_props/rtc_include", "--include-path=" + o.root,
          "--include-path=" + o.cccl, "--include-path=" + o.cuda + "/include"};
}

compiled_kernel compile_nvrtc(const std::string& source, const std::string& name, const rtc_options& o) {
  compiled_kernel k;
  const nvrtc_api& api = nvrtc();
  if (!api.error.empty()) {
    k.log = api.error;
    return k;
  }
  nvrtcProgram p;
  if (api.create(&p, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr) != NVRTC_SUCCESS) {
    k.log = "nvrtcCreateProgram failed";
    return k;
  }
  const std::vector<std::string> opts = nvrtc_options(o);
  std::vector<const char*> argv;
  for (const std::string& s : opts) argv.push_back(s.c_str());
  const nvrtcResult r = api.compile(p, static_cast<int>(argv.size()), argv.data());
  std::size_t n = 0;
  api.log_size(p, &n);
  k.log.assign(n, '\0');
  if (n) api.log(p, k.log.data());
  while (!k.log.empty() && k.log.back() == '\0') k.log.pop_back();
  if (r == NVRTC_SUCCESS) {
    std::size_t size = 0;
    api.cubin_size(p, &size);
    k.cubin.assign(size, '\0');
    api.cubin(p, k.cubin.data());
    k.ok = size > 0;
  } else {
    k.log = std::string(api.error_string(r)) + "\n" + k.log;
  }
  api.destroy(&p);
  return k;
}

compiled_kernel compile_nvcc(const std::string& source, const std::string& name, const rtc_options& o) {
  compiled_kernel k;
  char dir[] = "/tmp/tilesim-nvcc-XXXXXX";
  if (!mkdtemp(dir)) {
    k.log = "cannot make a temporary directory";
    return k;
  }
  const std::string base = std::string(dir) + "/" + name;
  write_file(base + ".cu", source);
  const std::string cmd = o.cuda + "/bin/nvcc -std=c++20 -O3 -arch=" + o.arch + " -I" + o.root + " -cubin " + base +
                          ".cu -o " + base + ".cubin -Xptxas -v > " + base + ".log 2>&1";
  const int status = std::system(cmd.c_str());
  read_file(base + ".log", k.log);
  k.ok = status == 0 && read_file(base + ".cubin", k.cubin) && !k.cubin.empty();
  std::system(("rm -rf " + std::string(dir)).c_str());
  return k;
}

compiled_kernel compile_hipcc(const std::string& source, const std::string& name, const rtc_options& o) {
  compiled_kernel k;
  char dir[] = "/tmp/tilesim-hipcc-XXXXXX";
  if (!mkdtemp(dir)) {
    k.log = "cannot make a temporary directory";
    return k;
  }
  const std::string base = std::string(dir) + "/" + name;
  write_file(base + ".hip", source);
  // gpu/kernels/amd/meson.build's flags: HIP_PLATFORM=amd (hipcc picks NVIDIA where nvcc is found), no alloca promotion.
  const std::string cmd = "HIP_PLATFORM=amd " + o.hipcc + " -std=c++20 -I" + o.root +
                          " -Wno-unused-command-line-argument -mllvm -disable-promote-alloca-to-lds -x hip"
                          " --cuda-device-only -S --offload-arch=" + o.arch + " " + base + ".hip -o " + base + ".s > " +
                          base + ".log 2>&1";
  const int status = std::system(cmd.c_str());
  read_file(base + ".log", k.log);
  k.ok = status == 0 && read_file(base + ".s", k.cubin) && !k.cubin.empty();
  std::system(("rm -rf " + std::string(dir)).c_str());
  return k;
}

}  // namespace

bool parse_amd_info(const std::string& assembly, const std::string& name, compiled_kernel& k) {
  const std::size_t at = assembly.find("\n" + name + ":");
  if (at == std::string::npos) return false;
  const std::string tail = assembly.substr(at);
  std::smatch m;
  if (!std::regex_search(tail, m, std::regex(R"(; ScratchSize: (\d+))"))) return false;
  k.stack_bytes = std::stoll(m[1]);
  k.spill_store_bytes = k.spill_load_bytes = 0;  // spills would be scratch
  if (std::regex_search(tail, m, std::regex(R"(; NumVgprs: (\d+))"))) k.registers = std::stoi(m[1]);
  return true;
}

bool parse_ptxas_info(const std::string& log, const std::string& name, compiled_kernel& k) {
  const std::size_t at = log.find("Function properties for " + name);
  if (at == std::string::npos) return false;
  const std::string tail = log.substr(at);
  std::smatch m;
  if (!std::regex_search(tail, m, std::regex(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)")))
    return false;
  k.stack_bytes = std::stoll(m[1]);
  k.spill_store_bytes = std::stoll(m[2]);
  k.spill_load_bytes = std::stoll(m[3]);
  if (std::regex_search(tail, m, std::regex(R"(Used (\d+) registers)"))) k.registers = std::stoi(m[1]);
  return true;
}

namespace {
// <cache>/<hash>: the cache entry of (back end, options, source); "" without a cache.
std::string cache_stem(const std::string& source, const rtc_options& o) {
  if (o.cache.empty()) return "";
  std::string key_text = std::string(o.backend == rtc_backend::nvrtc ? "nvrtc\n" : o.backend == rtc_backend::nvcc ? "nvcc\n" : "hipcc\n") + o.arch + "\n";
  if (o.backend == rtc_backend::nvrtc)
    for (const std::string& s : nvrtc_options(o)) key_text += s + "\n";
  char hash[20];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(key_text + source)));
  return o.cache + "/" + hash;
}

void parse_info(const std::string& name, const rtc_options& o, compiled_kernel& k) {
  if (o.backend == rtc_backend::hipcc) {
    parse_amd_info(k.cubin, name, k);
  } else if (!parse_ptxas_info(k.log, name, k) && k.ok) {
    // No ptxas lines for it (NVRTC's log can come back empty): the cubin's own attributes; spills live in the frame.
    if (const std::optional<cubin_frame_info> f = cubin_frame(k.cubin, name)) {
      k.stack_bytes = f->frame_bytes;
      k.spill_store_bytes = k.spill_load_bytes = f->frame_bytes == 0 ? 0 : -1;
      k.registers = f->registers;
    }
  }
}
}  // namespace

bool cached_kernel(const std::string& source, const std::string& name, const rtc_options& o, compiled_kernel& k) {
  const std::string stem = cache_stem(source, o);
  compiled_kernel hit;
  if (stem.empty() || !read_file(stem + ".cubin", hit.cubin) || !read_file(stem + ".log", hit.log)) return false;
  hit.ok = hit.cached = true;
  parse_info(name, o, hit);
  k = std::move(hit);
  return true;
}

compiled_kernel compile_kernel(const std::string& source, const std::string& name, const rtc_options& o) {
  compiled_kernel k;
  if (cached_kernel(source, name, o, k)) return k;
  const auto t0 = std::chrono::steady_clock::now();
  k = o.backend == rtc_backend::nvrtc ? compile_nvrtc(source, name, o)
      : o.backend == rtc_backend::nvcc ? compile_nvcc(source, name, o)
                                       : compile_hipcc(source, name, o);
  k.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  k.compiled_by_pid = static_cast<long long>(getpid());
  parse_info(name, o, k);
  const std::string stem = cache_stem(source, o);
  if (k.ok && !stem.empty()) {
    mkdir(o.cache.c_str(), 0755);
    write_file(stem + ".log", k.log);
    write_file(stem + ".cubin", k.cubin);  // last: its presence marks a complete entry
  }
  return k;
}

std::string backend_version(const rtc_options& o) {
  if (o.backend == rtc_backend::nvrtc) {
    int major = 0, minor = 0;
    if (!nvrtc().error.empty()) return "nvrtc (not loaded: " + nvrtc().error + ")";
    nvrtc().version(&major, &minor);
    return "nvrtc " + std::to_string(major) + "." + std::to_string(minor);
  }
  if (o.backend == rtc_backend::hipcc) return "hipcc " + o.arch;
  std::string v = "nvcc";
  if (std::FILE* f = popen((o.cuda + "/bin/nvcc --version 2>/dev/null").c_str(), "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::string l = line; l.find("release") != std::string::npos) v = "nvcc " + l.substr(l.find("release") + 8, 4);
    pclose(f);
  }
  return v;
}

std::string find_cccl() {
  struct stat st {};
  const std::string system = "/usr/local/cuda/include/cccl";
  if (stat((system + "/cuda/std/utility").c_str(), &st) == 0) return system;
  char exe[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string dir = n > 0 ? std::string(exe, static_cast<std::size_t>(n)) : std::string(".");
  dir = dir.substr(0, dir.rfind('/'));
  return dir + "/cccl";
}

std::string find_root(const std::string& given) {
  struct stat st {};
  if (stat((given + "/gpu/rtc_props/props_program.hpp").c_str(), &st) == 0) return given;
  return TILESIM_SOURCE_ROOT;
}

}  // namespace tilesim::gpu::props
