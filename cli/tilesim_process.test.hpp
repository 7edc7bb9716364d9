// tilesim/cli/tilesim_process.test.hpp: running the built `tilesim` ($TILESIM) in the cli tests.
//
// run_tilesim({"bank", "--arch", "sm90", "-"}, "p 4 load 0 4 ...\n") starts the binary with stdin read from a
// file holding the input, stdout and stderr captured in files (large outputs cannot block a pipe), and
// returns the exit status and both texts. Used by cli.test.cpp, bank.test.cpp and run.test.cpp.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace tilesim::testing {

struct result {
  int code = -1;  // exit status; -1 when killed by a signal
  std::string out, err;
};

// The whole content of a file ("" when unreadable).
inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A fresh empty file under $TMPDIR (or /tmp): temp_path("tilesim-out").
inline std::string temp_path(const char* stem) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp ? tmp : "/tmp") + "/" + stem + "-XXXXXX";
  const int fd = mkstemp(path.data());
  REQUIRE(fd >= 0);
  close(fd);
  return path;
}

// stderr without AddressSanitizer's one-time note on fibers ("==123==WARNING: ASan doesn't fully support
// makecontext/swapcontext ..."), which the ASan build prints before the first fiber switch: it is the
// runtime's, not tilesim's, and would otherwise break "one error line" checks there.
inline std::string without_sanitizer_notes(const std::string& err) {
  std::string out;
  std::stringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (!(line.rfind("==", 0) == 0 && line.find("WARNING: ASan doesn't fully support makecontext/swapcontext") != std::string::npos))
      out += line + "\n";
  if (!err.empty() && err.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

// Runs $TILESIM with `args`, stdin opened from `stdin_path` (a file, or "/" for a read error).
inline result run_tilesim_stdin_from(const std::vector<std::string>& args, const std::string& stdin_path) {
  const char* exe = std::getenv("TILESIM");
  REQUIRE_MESSAGE(exe != nullptr, "set TILESIM to the tilesim binary (meson test does)");
  const std::string in_path = stdin_path, out_path = temp_path("tilesim-out"), err_path = temp_path("tilesim-err");
  std::vector<std::string> argv_s = {exe};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_TRUNC, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, exe, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE_MESSAGE(spawned == 0, "cannot start " << exe);
  int status = 0;
  waitpid(pid, &status, 0);
  result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out_path);
  r.err = without_sanitizer_notes(slurp(err_path));
  for (const std::string& p : {out_path, err_path}) unlink(p.c_str());
  return r;
}

// Runs $TILESIM with `args`, stdin read from `input`.
inline result run_tilesim(const std::vector<std::string>& args, const std::string& input = "") {
  const std::string in_path = temp_path("tilesim-in");
  std::ofstream(in_path) << input;
  const result r = run_tilesim_stdin_from(args, in_path);
  unlink(in_path.c_str());
  return r;
}

// The lines of a text.
inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::stringstream s(text);
  for (std::string line; std::getline(s, line);) v.push_back(line);
  return v;
}

// The whitespace-separated words of a line.
inline std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> v;
  std::stringstream s(line);
  for (std::string w; s >> w;) v.push_back(w);
  return v;
}

}  // namespace tilesim::testing
