#pragma once
// A fresh directory under the system's temporary directory, removed with everything in it
// when the test ends: for tests that write files (state databases, kubeconfigs, plans).

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace strata::test_support {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "strata-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  //! Writes `text` to `name` (parent directories made) and returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::filesystem::path p = std::filesystem::path(path_) / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

 private:
  std::string path_;
};

}  // namespace strata::test_support
