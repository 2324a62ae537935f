#pragma once
// Seam: the files local_file reads and writes. The real implementation uses POSIX calls;
// the engine's tests may substitute an in-memory one.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace strata {

struct FileReadResult {
  bool exists = false;
  std::string content;
  unsigned mode = 0;  // permission bits (07777)
  std::string error;  // set when the file exists but cannot be read
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual FileReadResult Read(const std::string& path) = 0;
  //! Creates missing parent directories with `dir_mode` and writes `content`, a new file
  //! getting `file_mode`: the umask applies to both, as with Go's os.MkdirAll and
  //! os.WriteFile (which Terraform's local provider uses). A file that already exists
  //! keeps its mode less any bit `file_mode` does not grant. Returns an error message,
  //! empty on success.
  virtual std::string Write(const std::string& path, const std::string& content,
                            unsigned file_mode, unsigned dir_mode) = 0;
  //! Removes the file; a missing file is not an error. Returns an error message.
  virtual std::string Remove(const std::string& path) = 0;
};

std::shared_ptr<FileSystem> LocalFileSystem();

//! Files in memory (no directories: any path can be written; no umask), for tests.
class InMemoryFileSystem : public FileSystem {
 public:
  struct File {
    std::string content;
    unsigned mode = 0;
  };
  FileReadResult Read(const std::string& path) override;
  std::string Write(const std::string& path, const std::string& content, unsigned file_mode,
                    unsigned dir_mode) override;
  std::string Remove(const std::string& path) override;
  //! A copy of the current files, by path.
  std::map<std::string, File> Files() const;
  //! Edits a file "outside" (as a user would).
  void Put(const std::string& path, std::string content, unsigned mode = 0644);

 private:
  mutable std::mutex mu_;
  std::map<std::string, File> files_;
};

}  // namespace strata
