#pragma once
// Reading one YAML file into a node tree, with the file text registered for diagnostics,
// and the key checks every section shares.

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "engine/config/yaml_expr.h"

namespace strata {

struct YamlDocument {
  std::string text;  // owns the text that `file` views
  YamlFile file;
  YAML::Node root;
};

//! Reads and parses `path`; a missing file or a syntax error is reported with its position.
//! A file with several documents (---) is an error: one module file is one mapping. So is
//! text that is not UTF-8 or holds a NUL byte (reported without showing its bytes), and a
//! document beyond the bounds of engine/value/limits.h (nesting, alias expansion): once
//! this returns a document, walking it recursively is safe.
std::optional<YamlDocument> ReadYamlDocument(const std::string& path, SourceRegistry& sources, Diagnostics& diags);

//! Reports every key of mapping `node` not in `allowed` ("did you mean ...?"), and every key
//! that is not a string or is repeated (MappingKey).
void CheckKeys(const YamlFile& file, const YAML::Node& node, const std::vector<std::string>& allowed,
               const std::string& where, Diagnostics& diags);

}  // namespace strata
