// tilesim/util/output_file.cpp: see output_file.hpp.
#include "util/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/args.hpp"

namespace tilesim::cli {

// Writes `content` to a temporary file beside `path`, then renames it over `path`.
void write_file_replacing(const std::string& path, const std::string& content, const std::string& option) {
  auto fail = [&](const std::string& why) { throw usage_error(option + ": cannot write '" + path + "': " + why); };
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
