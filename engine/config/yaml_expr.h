#pragma once
// Turns YAML nodes (engine/config/yaml_node.h) into positioned expressions: maps become object expressions,
// sequences tuple expressions, strings with ${...} templates, plain scalars typed values
// (YAML core schema: true/false, null, numbers).

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/config/yaml_node.h"
#include "engine/diag/diagnostic.h"
#include "engine/expr/ast.h"

namespace strata {

//! The file being read: its name and text (for locating scalars precisely).
struct YamlFile {
  std::string path;
  std::string_view text;
};

SourceRange NodeRange(const YamlFile& file, const YamlNode& node);
//! Converts a node to an expression; errors in embedded expressions go to `diags`.
ExprRef NodeToExpr(const YamlFile& file, const YamlNode& node, Diagnostics& diags);
//! The key of one entry of a mapping; nullopt, reported, when it is not a scalar ("Invalid
//! key") or repeats a key of the same mapping ("Duplicate key", naming where it was first
//! set). `seen` holds the keys of that mapping so far, with their ranges.
std::optional<std::string> MappingKey(const YamlFile& file, const YamlNode& key,
                                      std::map<std::string, SourceRange>& seen, Diagnostics& diags);
//! A scalar's string; an error (wrong kind) is reported with `what` naming the field.
std::optional<std::string> ScalarString(const YamlFile& file, const YamlNode& node, const std::string& what,
                                        Diagnostics& diags);
std::optional<bool> ScalarBool(const YamlFile& file, const YamlNode& node, const std::string& what, Diagnostics& diags);

}  // namespace strata
