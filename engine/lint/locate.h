#pragma once
// Where a value of an evaluated resource instance was written. Values carry no positions, so
// the locator walks the resource's `properties` expression along the value's path (YAML
// mappings and lists are object and tuple expressions with ranges); where the path leaves
// what was written inline (`manifest: ${each.value}`), a Kubernetes object is looked up in
// the manifest files of the resource's module folder — by kind and name, a `${...}` in the
// written name matching anything — and the rest of the path followed there. It answers the
// deepest position it reached, at worst the resource's declaration.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/diag/source.h"
#include "engine/lint/model.h"

namespace strata::lint {

//! The expression written at `path` of `resource`'s properties when the path stays inside
//! what was written inline (YAML mappings and lists); null otherwise.
const Expr* WrittenAt(const ResourceConfig& resource, const Path& path);

class Locator {
 public:
  Locator();
  ~Locator();
  //! The position of `path` (a path into `inst`'s value); with `key`, of the mapping key its
  //! last step names rather than of its value.
  SourceRange Locate(const Instance& inst, const Path& path, bool key = false);
  //! The position of line `line` (0-based) of the string at `path`, when it is written as a
  //! block scalar (`|` or `>`); else the string's position.
  SourceRange LocateLine(const Instance& inst, const Path& path, int line);
  //! Line `line` (1-based) of `file`, read once per file; empty when there is none.
  std::string Line(const std::string& file, int line);

 private:
  struct ManifestFiles;
  //! The manifest documents under `dir`, read on first use (a clean project reads none).
  const ManifestFiles& ManifestsUnder(const std::string& dir);
  const std::vector<std::string>& Lines(const std::string& file);

  std::map<std::string, std::unique_ptr<ManifestFiles>> manifests_;
  std::map<std::string, std::vector<std::string>> lines_;  // files' lines, for LocateLine
};

}  // namespace strata::lint
