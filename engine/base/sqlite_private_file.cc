#include "engine/base/sqlite_private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

namespace strata::sqlite {
namespace {

constexpr mode_t kPrivate = 0600;

// The permission bits of the regular file at `path`, or nullopt.
std::optional<mode_t> ModeOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return st.st_mode & 07777;
}

}  // namespace

void PrepareDatabaseFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, kPrivate);
  if (fd >= 0) {
    ::fchmod(fd, kPrivate);  // the umask may have taken owner bits away
    ::close(fd);
    return;
  }
  if (errno != EEXIST) return;
  std::optional<mode_t> mode = ModeOf(path);
  if (!mode) return;
  if ((*mode & ~kPrivate) != 0 && ::chmod(path.c_str(), *mode & kPrivate) == 0) *mode &= kPrivate;
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    std::string companion = path + suffix;
    std::optional<mode_t> companion_mode = ModeOf(companion);
    if (companion_mode && *companion_mode != *mode) ::chmod(companion.c_str(), *mode);
  }
}

}  // namespace strata::sqlite
