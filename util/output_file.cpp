// tilesim/util/output_file.cpp: see output_file.hpp.
#include "util/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "util/args.hpp"

namespace tilesim::cli {

// Writes `content` to a temporary file beside `path`, then renames it over `path`; "-" writes stdout.
void write_file_replacing(const std::string& path, const std::string& content, const std::string& option) {
  if (path == "-") {
    std::cout.write(content.data(), static_cast<std::streamsize>(content.size()));
    return;
  }
  auto fail = [&](const std::string& why) { throw usage_error(option + ": cannot write " + quoted(path, 256) + ": " + why); };
  // Only a regular file (or nothing) is replaced: renaming over a symlink, a device node or a FIFO would turn
  // it into a regular file (run as root, --svg /dev/null replaced /dev/null).
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw usage_error(option + ": " + quoted(path, 256) + " is not a regular file (" +
                      (S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device node" : "a special file") +
                      "); tilesim replaces regular files only (write to a new path, or - for stdout)");
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) fail(std::strerror(errno));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(std::strerror(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(std::strerror(err));
  }
}

}  // namespace tilesim::cli
