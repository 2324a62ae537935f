#include "state/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/base/hex.h"

namespace strata::state {
namespace {

std::string ErrnoText() { return std::strerror(errno); }

StateStatus WriteError(const std::string& what, const std::string& path, const std::string& doing) {
  return StateStatus::Error(StateCode::Io, "cannot write " + what + " " + path + " (" + doing + ": " + ErrnoText() +
                                               "): check that its directory exists and is writable, and that "
                                               "the disk is not full");
}

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

StateStatus WritePrivateFile(const std::string& path, const std::string& text, const std::string& what,
                             StateEnvironment& env) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::string tmp = path + ".tmp-" + base::HexEncode(env.RandomBytes(6));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return WriteError(what, path, "creating " + tmp);
  // The umask can only take bits away; fchmod makes the mode exactly 0600 all the same.
  bool ok = ::fchmod(fd, 0600) == 0 && WriteAll(fd, text) && ::fsync(fd) == 0;
  int saved = errno;
  std::string doing = "writing " + tmp;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    saved = errno;
    doing = "renaming " + tmp;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    errno = saved;
    return WriteError(what, path, doing);
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return WriteError(what, path, "opening directory " + dir.string());
  ok = ::fsync(dfd) == 0;
  saved = errno;
  ::close(dfd);
  errno = saved;
  return ok ? StateStatus::Ok() : WriteError(what, path, "syncing directory " + dir.string());
}


}  // namespace strata::state
