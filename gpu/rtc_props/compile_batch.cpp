// tilesim/gpu/rtc_props/compile_batch.cpp: compile_batch, its worker processes, default_compile_jobs (compile_batch.hpp).
#include "gpu/rtc_props/compile_batch.hpp"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "gpu/rtc_props/kernel_source.hpp"

extern char** environ;

namespace tilesim::gpu::props {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

const char* backend_word(rtc_backend b) { return b == rtc_backend::nvrtc ? "nvrtc" : b == rtc_backend::nvcc ? "nvcc" : "hipcc"; }

// The rtc options as worker arguments, and back.
std::vector<std::string> option_args(const rtc_options& o) {
  return {"--backend", backend_word(o.backend), "--arch", o.arch, "--cache", o.cache.empty() ? "-" : o.cache,
          "--root", o.root, "--cccl", o.cccl, "--cuda", o.cuda, "--hipcc", o.hipcc};
}

// The misses compiled by `jobs` threads of this process (nvcc/hipcc subprocesses, or NVRTC measured in threads).
void compile_in_threads(const std::vector<std::string>& sources, const std::vector<std::string>& names,
                        const std::vector<std::size_t>& misses, const rtc_options& o, int jobs,
                        const std::function<void(std::size_t)>& finished, std::vector<compiled_kernel>& out) {
  std::atomic<std::size_t> next{0};
  std::mutex m;
  auto worker = [&] {
    for (std::size_t k; (k = next++) < misses.size();) {
      const std::size_t i = misses[k];
      compiled_kernel c = compile_kernel(sources[i], names[i], o);
      std::lock_guard<std::mutex> lock(m);
      out[i] = std::move(c);
      finished(i);
    }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, std::min(jobs, static_cast<int>(misses.size())));
  for (int j = 0; j < n; ++j) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
}

struct worker_process {
  pid_t pid = -1;
  int to = -1, from = -1;     // its stdin (we write), its stdout (we read)
  std::string buffer;         // what it wrote after the last full line
  long long busy = -1;        // the case it is compiling, -1 when idle
};

// Starts one worker: this executable, `entry`, "--compile-worker", dir, the options; stdin/stdout on pipes.
worker_process spawn_worker(const std::string& exe, const std::vector<std::string>& argv_words) {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("cannot make a pipe for a compile worker");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  for (int fd : {in[0], in[1], out[0], out[1]}) posix_spawn_file_actions_addclose(&fa, fd);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);  // the parent ignores SIGPIPE during a batch; the worker must not inherit that
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const std::string& w : argv_words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  worker_process w;
  const int rc = posix_spawn(&w.pid, exe.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(in[0]);
  close(out[1]);
  w.to = in[1];
  w.from = out[0];
  if (rc != 0) {
    close(w.to);
    close(w.from);
    throw std::runtime_error("cannot start a compile worker (" + exe + "): error " + std::to_string(rc));
  }
  return w;
}

// Hands case `k` (an index into misses) to worker w: "index name\n". A worker that cannot take it has died:
// its end of file comes next and fails the case.
void hand(worker_process& w, std::size_t k, const std::vector<std::size_t>& misses, const std::vector<std::string>& names) {
  const std::string line = std::to_string(misses[k]) + " " + names[misses[k]] + "\n";
  w.busy = static_cast<long long>(misses[k]);
  const ssize_t wrote = write(w.to, line.data(), line.size());
  (void)wrote;
}

// The misses compiled by `jobs` worker processes (see compile_batch.hpp).
void compile_in_processes(const std::vector<std::string>& sources, const std::vector<std::string>& names,
                          const std::vector<std::size_t>& misses, const rtc_options& o, int jobs,
                          const std::vector<std::string>& entry, const std::function<void(std::size_t)>& finished,
                          std::vector<compiled_kernel>& out) {
  char dir_template[] = "/tmp/tilesim-compile-XXXXXX";
  if (!mkdtemp(dir_template)) throw std::runtime_error("cannot make a temporary directory for the compile workers");
  const std::string dir = dir_template;
  for (std::size_t i : misses) spit(dir + "/" + std::to_string(i) + ".cu", sources[i]);
  char exe[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) throw std::runtime_error("cannot read /proc/self/exe to start compile workers");
  std::vector<std::string> words = entry;
  words.push_back("--compile-worker");
  words.push_back(dir);
  for (const std::string& a : option_args(o)) words.push_back(a);
  backend_version(o);  // loads NVRTC here first: a missing library is named once, by the parent's first compile
  struct sigaction ignore {}, saved {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &saved);  // a worker that died must not take this process with it
  std::vector<worker_process> pool;
  std::size_t next = 0;
  const int count = std::max(1, std::min(jobs, static_cast<int>(misses.size())));
  for (int j = 0; j < count; ++j) {
    pool.push_back(spawn_worker(exe, words));
    hand(pool.back(), next++, misses, names);
  }
  auto fail = [&](std::size_t i, const std::string& why) {
    out[i] = compiled_kernel{};
    out[i].log = why;
    finished(i);
  };
  for (std::size_t open = pool.size(); open > 0;) {
    std::vector<pollfd> fds;
    std::vector<std::size_t> which;
    for (std::size_t j = 0; j < pool.size(); ++j)
      if (pool[j].from >= 0) fds.push_back({pool[j].from, POLLIN, 0}), which.push_back(j);
    if (poll(fds.data(), fds.size(), -1) < 0) continue;  // EINTR
    for (std::size_t f = 0; f < fds.size(); ++f) {
      if (!fds[f].revents) continue;
      worker_process& w = pool[which[f]];
      char buf[4096];
      const ssize_t got = read(w.from, buf, sizeof buf);
      if (got <= 0) {  // the worker ended: what it held failed; give the rest to the others
        if (w.busy >= 0) fail(static_cast<std::size_t>(w.busy), "the compile worker process ended without a result");
        close(w.from);
        if (w.to >= 0) close(w.to);
        w.from = w.to = -1;
        --open;
        continue;
      }
      w.buffer.append(buf, static_cast<std::size_t>(got));
      for (std::size_t eol; (eol = w.buffer.find('\n')) != std::string::npos;) {
        std::istringstream line(w.buffer.substr(0, eol));
        w.buffer.erase(0, eol + 1);
        std::size_t i = 0;
        compiled_kernel k;
        line >> i >> k.ok >> k.cached >> k.seconds >> k.stack_bytes >> k.spill_store_bytes >> k.spill_load_bytes >> k.registers >>
            k.compiled_by_pid;
        if (!line || i >= out.size()) continue;
        const std::string stem = dir + "/" + std::to_string(i);
        k.cubin = slurp(stem + ".cubin");
        k.log = slurp(stem + ".log");
        out[i] = std::move(k);
        w.busy = -1;
        finished(i);
        if (next < misses.size()) {
          hand(w, next++, misses, names);
        } else if (w.to >= 0) {  // nothing left: its stdin closes, it exits, its end of file comes
          close(w.to);
          w.to = -1;
        }
      }
    }
  }
  for (worker_process& w : pool) waitpid(w.pid, nullptr, 0);
  sigaction(SIGPIPE, &saved, nullptr);
  for (; next < misses.size(); ++next) fail(misses[next], "no compile worker was left to compile it");
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace

std::vector<compiled_kernel> compile_batch(const std::vector<props_case>& cases, const rtc_options& o, int jobs,
                                           const std::function<void(std::size_t, std::size_t)>& on_done,
                                           const std::vector<std::string>& entry, compile_pool pool) {
  std::vector<compiled_kernel> out(cases.size());
  std::vector<std::string> sources, names;
  std::vector<std::size_t> misses;
  std::size_t done = 0;
  auto finished = [&](std::size_t) {
    ++done;
    if (on_done) on_done(done, cases.size());
  };
  for (const props_case& c : cases) {
    names.push_back(kernel_name(c));
    sources.push_back(kernel_source(c, names.back()));
  }
  // Cache hits here (cheap: two file reads), so that only real compiles start workers.
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cached_kernel(sources[i], names[i], o, out[i])) finished(i);
    else misses.push_back(i);
  }
  if (misses.empty()) return out;
  if (o.backend == rtc_backend::nvrtc && pool == compile_pool::processes && jobs > 1 && misses.size() > 1)
    compile_in_processes(sources, names, misses, o, jobs, entry, finished, out);
  else
    compile_in_threads(sources, names, misses, o, jobs, finished, out);
  return out;
}

int compile_worker_main(const std::vector<std::string>& args) {
  if (args.empty() || args.size() % 2 == 0) {
    std::fprintf(stderr, "--compile-worker DIR [--backend B --arch A --cache C --root R --cccl D --cuda D --hipcc P]\n");
    return 2;
  }
  const std::string dir = args[0];
  rtc_options o;
  for (std::size_t a = 1; a + 1 < args.size(); a += 2) {
    const std::string& key = args[a];
    const std::string& v = args[a + 1];
    if (key == "--backend") o.backend = v == "nvrtc" ? rtc_backend::nvrtc : v == "nvcc" ? rtc_backend::nvcc : rtc_backend::hipcc;
    else if (key == "--arch") o.arch = v;
    else if (key == "--cache") o.cache = v == "-" ? "" : v;
    else if (key == "--root") o.root = v;
    else if (key == "--cccl") o.cccl = v;
    else if (key == "--cuda") o.cuda = v;
    else if (key == "--hipcc") o.hipcc = v;
    else {
      std::fprintf(stderr, "--compile-worker: unknown option \"%s\"\n", key.c_str());
      return 2;
    }
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::size_t i = 0;
    std::string name;
    if (!(in >> i >> name)) continue;
    const std::string stem = dir + "/" + std::to_string(i);
    const compiled_kernel k = compile_kernel(slurp(stem + ".cu"), name, o);
    spit(stem + ".cubin", k.cubin);
    spit(stem + ".log", k.log);
    std::printf("%zu %d %d %.17g %lld %lld %lld %d %lld\n", i, k.ok ? 1 : 0, k.cached ? 1 : 0, k.seconds, k.stack_bytes,
                k.spill_store_bytes, k.spill_load_bytes, k.registers, k.compiled_by_pid);
    std::fflush(stdout);
  }
  return 0;
}

int default_compile_jobs() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  if (cores <= 0) cores = static_cast<int>(std::thread::hardware_concurrency());
  // cgroup v2: "max 100000" (no limit) or "QUOTA PERIOD" (QUOTA/PERIOD cores).
  std::ifstream quota_file("/sys/fs/cgroup/cpu.max");
  std::string quota;
  long long period = 0;
  if (quota_file >> quota >> period && quota != "max" && period > 0) {
    const long long q = std::atoll(quota.c_str());
    if (q > 0) cores = std::min(cores, static_cast<int>(std::ceil(static_cast<double>(q) / static_cast<double>(period))));
  }
  return std::max(1, cores);
}

}  // namespace tilesim::gpu::props
