#include "providers/schema_docs.h"

#include <fmt/format.h>

#include "providers/terraform_gaps.h"

namespace strata {
namespace {

// How the README's crash-safety section names each recovery.
const char* RecoveryText(CreateRecovery r) {
  switch (r) {
    case CreateRecovery::ClientToken: return "client token: an interrupted create is sent again with the same token";
    case CreateRecovery::CreateTag: return "create tag: the create call tags the object with its token, and recovery finds it by that tag";
    case CreateRecovery::NaturalKey: return "natural key: the object's unique key finds what an interrupted create made";
    case CreateRecovery::StateOnly: return "state only: nothing exists outside Strata's state";
    case CreateRecovery::Rerun: return "rerun: the command runs again with the same token in its environment";
    case CreateRecovery::Unspecified: break;
  }
  return "not declared";
}

bool IsBlock(const AttributeSchema& a) {
  return (a.required || a.optional) && (a.type.kind() == Type::Kind::List || a.type.kind() == Type::Kind::Set) &&
         a.type.element().kind() == Type::Kind::Object;
}

std::string Notes(const AttributeSchema& a) {
  std::string notes;
  auto add = [&](const std::string& n) { notes += (notes.empty() ? "" : "; ") + n; };
  if (a.computed) add("computed when not set");
  if (a.force_new) add("forces replacement");
  if (a.sensitive) add("sensitive");
  if (!a.description.empty()) add(a.description);
  return notes;
}

std::string BlockMembers(const Type& object, const std::string& prefix) {
  std::string out;
  for (const auto& [name, member] : object.attributes()) {
    out += fmt::format("| `{}{}` | `{}` | {} |\n", prefix, name, member.type.ToString(), member.optional ? "optional" : "required");
  }
  return out;
}

// The arguments Terraform's provider accepts for this type and Strata does not yet.
std::string NotSupportedYet(const ResourceSchema& s) {
  std::vector<std::string> missing = terraform_gaps::MissingArguments(s.mode, s.type);
  if (missing.empty()) return "";
  std::string out =
      "\n## Terraform arguments not supported yet\n\nTerraform's provider accepts these and Strata does not yet; setting "
      "one is an error (\"not supported by Strata yet\"), never ignored:\n\n";
  for (const std::string& path : missing) out += fmt::format("- `{}`\n", path);
  return out;
}

std::string Page(const std::string& provider, const ResourceSchema& s) {
  bool data = s.mode == ResourceMode::Data;
  std::string out = fmt::format("# {} ({})\n\nProvider: `strata/{}`.", s.type, data ? "data source" : "resource", provider);
  if (!data) out += fmt::format(" Interrupted create: {}.", RecoveryText(s.create_recovery));
  if (s.dynamic) out += " Takes attributes beyond those listed (a schema learned at run time).";
  out += "\n\n";
  std::string arguments, blocks, attributes;
  for (const auto& [name, a] : s.attributes) {
    if (IsBlock(a)) {
      blocks += fmt::format("### `{}` ({} of blocks, {})\n\n| name | type | |\n|---|---|---|\n{}\n", name,
                            a.type.kind() == Type::Kind::Set ? "set" : "list", a.required ? "required" : "optional",
                            BlockMembers(a.type.element(), ""));
    } else if (a.required || a.optional) {
      arguments += fmt::format("| `{}` | `{}` | {} | {} |\n", name, a.type.ToString(), a.required ? "required" : "optional",
                               Notes(a));
    } else {
      attributes += fmt::format("| `{}` | `{}` | {} |\n", name, a.type.ToString(), a.sensitive ? "sensitive" : "");
    }
  }
  out += "## Arguments\n\n";
  out += arguments.empty() ? "None.\n" : "| name | type | | notes |\n|---|---|---|---|\n" + arguments;
  if (!blocks.empty()) out += "\n## Blocks\n\n" + blocks;
  out += "\n## Attributes (read-only)\n\n";
  out += attributes.empty() ? "None.\n" : "| name | type | |\n|---|---|---|\n" + attributes;
  out += NotSupportedYet(s);
  out += "\n---\nGenerated from the provider's schema by `strata providers docs docs/reference`; do not edit.\n";
  return out;
}

}  // namespace

std::map<std::string, std::string> ProviderReferencePages(const ProviderRegistry& registry) {
  std::map<std::string, std::string> pages;
  std::string index =
      "# Provider reference\n\nEvery resource and data source type compiled into Strata, generated from the schemas by "
      "`strata providers docs docs/reference` (a test fails when a page is out of date).\n";
  for (const std::string& name : registry.Names()) {
    const ProviderSchema* schema = registry.SchemaOf(name);
    if (!schema) continue;
    index += fmt::format("\n## strata/{}\n\n", name);
    for (const ResourceSchema& r : schema->resources) {
      std::string path = fmt::format("{}/resources/{}.md", name, r.type);
      pages[path] = Page(name, r);
      index += fmt::format("- resource [`{}`]({})\n", r.type, path);
    }
    for (const ResourceSchema& d : schema->data_sources) {
      std::string path = fmt::format("{}/data-sources/{}.md", name, d.type);
      pages[path] = Page(name, d);
      index += fmt::format("- data source [`{}`]({})\n", d.type, path);
    }
  }
  pages["README.md"] = index;
  return pages;
}

}  // namespace strata
