#include "engine/core/module_cache.h"

#include <sys/stat.h>

#include <filesystem>

namespace strata {

ModuleCache::Stamp ModuleCache::StampOf(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {-1, -1};
  return {static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, static_cast<int64_t>(st.st_size)};
}

bool ModuleCache::Unchanged(const Entry& e) {
  for (const auto& [path, stamp] : e.read) {
    if (StampOf(path) != stamp) return false;
  }
  return true;
}

std::shared_ptr<const ModuleConfig> ModuleCache::Load(const std::string& dir, SourceRegistry& sources,
                                                      Diagnostics& diags) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(dir);
  if (it == entries_.end() || !Unchanged(it->second)) {
    Entry e;
    e.root = LoadModule(dir, sources, e.diags);
    // Every file registered so far, not only this load's: a module another stage loaded
    // first is registered already, and reading too much here only costs a stat.
    e.read[dir] = StampOf(dir);
    for (const std::string& file : sources.Files()) {
      e.read[file] = StampOf(file);
      std::string parent = std::filesystem::path(file).parent_path().string();
      if (!parent.empty()) e.read.emplace(parent, StampOf(parent));
    }
    it = entries_.insert_or_assign(dir, std::move(e)).first;
  }
  diags.Append(it->second.diags);
  return it->second.root;
}

}  // namespace strata
