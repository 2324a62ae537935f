#pragma once
// Each module directory parsed once per process. Loading one stage needs the output names
// of every other stage (the ${stage.S.X} catalog), and `validate` or the stage order load
// every stage in turn: without a cache a seven-stage project parses each stage's files
// dozens of times per command. An entry is used again only while none of the files and
// directories read so far changed (modification time and size), so a process that
// rewrites configuration between loads (a test, a generated file) reads it afresh.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "engine/config/loader.h"
#include "engine/diag/diagnostic.h"
#include "engine/diag/source.h"

namespace strata {

class ModuleCache {
 public:
  //! LoadModule(dir, sources, diags), or the same answer again: the module and the
  //! diagnostics its load reported, appended to `diags`. Thread-safe.
  std::shared_ptr<const ModuleConfig> Load(const std::string& dir, SourceRegistry& sources, Diagnostics& diags);

 private:
  // What a path looked like: modification time (ns) and size; (-1, -1) when missing.
  using Stamp = std::pair<int64_t, int64_t>;
  struct Entry {
    std::shared_ptr<const ModuleConfig> root;
    Diagnostics diags;
    std::map<std::string, Stamp> read;  // every file registered, and their directories
  };
  static Stamp StampOf(const std::string& path);
  static bool Unchanged(const Entry& e);

  std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace strata
