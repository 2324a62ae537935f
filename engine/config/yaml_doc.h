#pragma once
// Reading one YAML file into a node tree, with the file text registered for diagnostics,
// and the key checks every section shares.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/yaml_expr.h"
#include "engine/config/yaml_node.h"

namespace strata {

struct YamlDocument {
  std::string text;  // owns the text that `file` views
  YamlFile file;
  YamlTree tree;  // owns the nodes
  YamlNode root;
};

//! A file that parses but is not of the kind being read (a Kubernetes manifest among module
//! files): the one error to report for it, at its first line, instead of any other.
struct ForeignFile {
  std::string summary;
  std::string detail;
};
//! Looks at every document of a parsed file; nullopt when the file may be of the kind read.
using ForeignFileCheck = std::function<std::optional<ForeignFile>(const std::vector<YamlNode>& documents)>;

//! Reads and parses `path`; a missing file or a syntax error is reported with its position.
//! A file with several documents (---) is an error: one module file is one mapping. So is
//! text that is not UTF-8 or holds a NUL byte (reported without showing its bytes), and a
//! document beyond the bounds of engine/value/limits.h (nesting, alias expansion): once
//! this returns a document, walking it recursively is safe. `foreign`, when given, is asked
//! first about a file that parses (however many documents it holds).
std::optional<YamlDocument> ReadYamlDocument(const std::string& path, SourceRegistry& sources, Diagnostics& diags,
                                             const ForeignFileCheck& foreign = {});

//! Reports every key of mapping `node` not in `allowed` ("did you mean ...?"), and every key
//! that is not a string or is repeated (MappingKey).
void CheckKeys(const YamlFile& file, const YamlNode& node, const std::vector<std::string>& allowed,
               const std::string& where, Diagnostics& diags);

}  // namespace strata
