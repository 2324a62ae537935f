#include "providers/builtin/file_system.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace strata {
namespace {

std::string Errno(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// open(O_CREAT) gives a new file `mode` less the umask but leaves an existing file's mode
// alone: take away the bits `mode` does not grant. Returns an error message.
std::string NoWiderThan(int fd, const std::string& path, unsigned mode) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Errno("cannot stat", path);
  unsigned current = st.st_mode & 07777;
  if ((current & ~mode) == 0) return {};
  if (::fchmod(fd, current & mode) != 0) return Errno("cannot chmod", path);
  return {};
}

class PosixFileSystem : public FileSystem {
 public:
  FileReadResult Read(const std::string& path) override {
    FileReadResult result;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      if (errno != ENOENT && errno != ENOTDIR) result.error = Errno("cannot stat", path);
      return result;
    }
    result.exists = true;
    result.mode = st.st_mode & 07777;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      result.error = Errno("cannot open", path);
      return result;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    result.content = buffer.str();
    return result;
  }

  std::string Write(const std::string& path, const std::string& content, unsigned file_mode,
                    unsigned dir_mode) override {
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      if (!std::filesystem::exists(parent, ec)) {
        // Create each missing level with dir_mode (as Go's MkdirAll(dir, perm) does).
        std::filesystem::path built;
        for (const auto& part : parent) {
          built /= part;
          if (std::filesystem::exists(built, ec)) continue;
          if (::mkdir(built.c_str(), dir_mode) != 0 && errno != EEXIST) {
            return Errno("cannot create directory", built.string());
          }
        }
      }
    }
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, file_mode);
    if (fd < 0) return Errno("cannot write", path);
    size_t done = 0;
    while (done < content.size()) {
      ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        std::string error = Errno("cannot write", path);
        ::close(fd);
        return error;
      }
      done += static_cast<size_t>(n);
    }
    if (std::string error = NoWiderThan(fd, path, file_mode); !error.empty()) {
      ::close(fd);
      return error;
    }
    if (::close(fd) != 0) return Errno("cannot close", path);
    return {};
  }

  std::string Remove(const std::string& path) override {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Errno("cannot remove", path);
    return {};
  }
};

}  // namespace

std::shared_ptr<FileSystem> LocalFileSystem() { return std::make_shared<PosixFileSystem>(); }

FileReadResult InMemoryFileSystem::Read(const std::string& path) {
  std::lock_guard lock(mu_);
  FileReadResult result;
  auto it = files_.find(path);
  if (it == files_.end()) return result;
  result.exists = true;
  result.content = it->second.content;
  result.mode = it->second.mode;
  return result;
}

std::string InMemoryFileSystem::Write(const std::string& path, const std::string& content,
                                      unsigned file_mode, unsigned) {
  std::lock_guard lock(mu_);
  auto it = files_.find(path);
  unsigned mode = it == files_.end() ? file_mode : it->second.mode & file_mode;
  files_[path] = {content, mode & 07777};
  return {};
}

std::string InMemoryFileSystem::Remove(const std::string& path) {
  std::lock_guard lock(mu_);
  files_.erase(path);
  return {};
}

std::map<std::string, InMemoryFileSystem::File> InMemoryFileSystem::Files() const {
  std::lock_guard lock(mu_);
  return files_;
}

void InMemoryFileSystem::Put(const std::string& path, std::string content, unsigned mode) {
  std::lock_guard lock(mu_);
  files_[path] = {std::move(content), mode};
}

}  // namespace strata
