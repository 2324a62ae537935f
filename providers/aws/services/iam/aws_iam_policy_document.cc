// data "aws_iam_policy_document": an IAM policy JSON built from statement blocks, with
// Terraform's output byte for byte where we know it: keys in the order Version, Id,
// Statement / Sid, Effect, Action, NotAction, Resource, NotResource, Principal,
// NotPrincipal, Condition; empty fields left out; a one-element list written as its
// string, longer lists of actions, resources, identifiers and condition values sorted in
// descending order (Terraform sorts them in reverse); principal types and condition
// operators and keys sorted; two-space indentation; <, > and & escaped as Go does.
// "&{aws:username}" in resources, principals and condition values becomes "${...}".
// source_policy_documents are merged first (their Sids must be unique), then this
// document's statements, then override_policy_documents: a statement with a Sid replaces
// the earlier one with the same Sid, others are appended. id is the CRC-32 of `json`, as
// Terraform's. No API call.

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/iam/iam_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using ojson = nlohmann::ordered_json;

constexpr const char* kStatementKeys[] = {"Sid",         "Effect",      "Action",       "NotAction", "Resource",
                                          "NotResource", "Principal",   "NotPrincipal", "Condition"};

uint32_t Crc32(const std::string& s) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : s) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::string Interpolate(std::string s) {
  for (size_t at = s.find("&{"); at != std::string::npos; at = s.find("&{", at + 2)) s[at] = '$';
  return s;
}

//! Terraform's policyDecodeConfigStringList: one item as a string, more sorted descending.
ojson StringOrList(std::vector<std::string> items) {
  if (items.size() == 1) return items.front();
  std::sort(items.begin(), items.end(), std::greater<>());
  return ojson(items);
}

std::vector<std::string> Strings(const Value& block, const std::string& attr, bool interpolate) {
  std::vector<std::string> out = GetStringList(block, attr);
  if (interpolate) {
    for (std::string& s : out) s = Interpolate(s);
  }
  return out;
}

ValueList Items(const Value& v, const std::string& name) {
  Value list = Get(v, name);
  return list.IsSequence() ? list.AsList() : ValueList{};
}

ojson Principals(const ValueList& principals) {
  if (principals.size() == 1 && GetString(principals[0], "type") == "*") {
    std::vector<std::string> ids = GetStringList(principals[0], "identifiers");
    if (ids == std::vector<std::string>{"*"}) return "*";
  }
  std::map<std::string, std::vector<std::string>> by_type;
  std::map<std::string, bool> single;  // the type's value is still one string
  for (const Value& p : principals) {
    std::string type = GetString(p, "type");
    std::vector<std::string> ids = Strings(p, "identifiers", true);
    bool first = !by_type.count(type);
    std::vector<std::string>& all = by_type[type];
    if (ids.size() == 1) {
      all.push_back(ids.front());
      single[type] = first;
    } else {
      std::sort(ids.begin(), ids.end(), std::greater<>());
      all.insert(all.end(), ids.begin(), ids.end());
      single[type] = false;
    }
  }
  ojson out = ojson::object();
  for (const auto& [type, ids] : by_type) {
    if (single[type]) {
      out[type] = ids.front();
    } else {
      out[type] = ids;
    }
  }
  return out;
}

ojson Conditions(const ValueList& conditions) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> raw;
  std::map<std::string, std::map<std::string, bool>> single;
  for (const Value& c : conditions) {
    std::string test = GetString(c, "test"), variable = GetString(c, "variable");
    std::vector<std::string> values = Strings(c, "values", true);
    bool first = !raw[test].count(variable);
    std::vector<std::string>& all = raw[test][variable];
    if (values.size() == 1) {
      all.push_back(values.front());
      single[test][variable] = first;
    } else {
      std::sort(values.begin(), values.end(), std::greater<>());
      all.insert(all.end(), values.begin(), values.end());
      single[test][variable] = false;
    }
  }
  ojson out = ojson::object();
  for (const auto& [test, variables] : raw) {
    ojson inner = ojson::object();
    for (const auto& [variable, values] : variables) {
      if (single[test][variable]) {
        inner[variable] = values.front();
      } else {
        inner[variable] = values;
      }
    }
    out[test] = inner;
  }
  return out;
}

ojson StatementJson(const Value& s) {
  ojson out = ojson::object();
  std::string sid = GetString(s, "sid");
  if (!sid.empty()) out["Sid"] = sid;
  out["Effect"] = GetString(s, "effect", "Allow");
  auto list = [&](const char* key, const char* attr, bool interpolate) {
    std::vector<std::string> items = Strings(s, attr, interpolate);
    if (!items.empty()) out[key] = StringOrList(items);
  };
  list("Action", "actions", false);
  list("NotAction", "not_actions", false);
  list("Resource", "resources", true);
  list("NotResource", "not_resources", true);
  ValueList principals = Items(s, "principals"), not_principals = Items(s, "not_principals");
  if (!principals.empty()) out["Principal"] = Principals(principals);
  if (!not_principals.empty()) out["NotPrincipal"] = Principals(not_principals);
  ValueList conditions = Items(s, "condition");
  if (!conditions.empty()) out["Condition"] = Conditions(conditions);
  return out;
}

//! A statement of another document with its keys in Terraform's order.
ojson Reordered(const ojson& statement) {
  if (!statement.is_object()) return statement;
  ojson out = ojson::object();
  for (const char* key : kStatementKeys) {
    if (statement.contains(key)) out[key] = statement[key];
  }
  for (auto it = statement.begin(); it != statement.end(); ++it) {
    if (!out.contains(it.key())) out[it.key()] = it.value();
  }
  return out;
}

struct PolicyDoc {
  std::string version;
  std::string id;
  std::vector<ojson> statements;

  //! Terraform's IAMPolicyDoc.Merge.
  void Merge(const PolicyDoc& other) {
    if (!other.id.empty()) id = other.id;
    if (other.version > version) version = other.version;
    for (const ojson& s : other.statements) {
      std::string sid = s.contains("Sid") && s["Sid"].is_string() ? s["Sid"].get<std::string>() : "";
      auto same = sid.empty() ? statements.end() : std::find_if(statements.begin(), statements.end(), [&](const ojson& e) {
        return e.contains("Sid") && e["Sid"] == sid;
      });
      if (same != statements.end()) {
        *same = s;
      } else {
        statements.push_back(s);
      }
    }
  }
};

std::string Sid(const ojson& s) { return s.contains("Sid") && s["Sid"].is_string() ? s["Sid"].get<std::string>() : ""; }

bool ParseDoc(const std::string& text, PolicyDoc& out) {
  ojson j = ojson::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return false;
  if (j.contains("Version") && j["Version"].is_string()) out.version = j["Version"].get<std::string>();
  if (j.contains("Id") && j["Id"].is_string()) out.id = j["Id"].get<std::string>();
  if (j.contains("Statement")) {
    const ojson& s = j["Statement"];
    if (s.is_array()) {
      for (const auto& item : s) out.statements.push_back(Reordered(item));
    } else if (s.is_object()) {
      out.statements.push_back(Reordered(s));
    }
  }
  return true;
}

//! Go's json.Marshal escapes these three even inside strings (they appear nowhere else).
std::string GoEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

class AwsIamPolicyDocument final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    const char* principal = "set(object({type=string, identifiers=set(string)}))";
    std::string statement =
        std::string("list(object({sid=optional(string), effect=optional(string), actions=optional(set(string)), ") +
        "not_actions=optional(set(string)), resources=optional(set(string)), not_resources=optional(set(string)), " +
        "principals=optional(" + principal + "), not_principals=optional(" + principal + "), " +
        "condition=optional(set(object({test=string, variable=string, values=list(string)})))}))";
    ResourceSchema s = ManagedSchema("aws_iam_policy_document", {{"version", Optional("string")},
                                                                 {"policy_id", Optional("string")},
                                                                 {"statement", Optional(statement.c_str())},
                                                                 {"source_policy_documents", Optional("list(string)")},
                                                                 {"override_policy_documents", Optional("list(string)")},
                                                                 {"json", Computed("string")},
                                                                 {"minified_json", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    (void)ctx;
    PolicyDoc merged;
    std::map<std::string, bool> sids;
    std::vector<std::string> sources = GetStringList(config, "source_policy_documents");
    for (size_t i = 0; i < sources.size(); ++i) {
      PolicyDoc source;
      if (!ParseDoc(sources[i], source)) {
        return {Value(), false, Error("Invalid source policy document",
                                      "source_policy_documents[" + std::to_string(i) + "] is not a JSON policy document.")};
      }
      for (const ojson& s : source.statements) {
        std::string sid = Sid(s);
        if (sid.empty()) continue;
        if (sids[sid]) {
          return {Value(), false, Error("Duplicate Sid", "Duplicate Sid (" + sid + ") in source_policy_documents (item " +
                                                             std::to_string(i) + "). Remove the Sid or make Sids unique.")};
        }
        sids[sid] = true;
      }
      merged.Merge(source);
    }

    PolicyDoc own;
    own.version = GetString(config, "version", "2012-10-17");
    own.id = GetString(config, "policy_id");
    std::map<std::string, bool> own_sids;
    for (const Value& s : Items(config, "statement")) {
      std::string effect = GetString(s, "effect", "Allow");
      if (effect != "Allow" && effect != "Deny") {
        return {Value(), false, Error("Invalid effect", "A statement's effect must be \"Allow\" or \"Deny\", not \"" + effect + "\".")};
      }
      std::string sid = GetString(s, "sid");
      if (!sid.empty() && own_sids[sid]) {
        return {Value(), false, Error("Duplicate Sid", "Found duplicate sid (" + sid + "). Either remove the sid or ensure the sid is unique across all statements.")};
      }
      own_sids[sid] = !sid.empty();
      own.statements.push_back(StatementJson(s));
    }
    merged.Merge(own);

    std::vector<std::string> overrides = GetStringList(config, "override_policy_documents");
    for (size_t i = 0; i < overrides.size(); ++i) {
      PolicyDoc override_doc;
      if (!ParseDoc(overrides[i], override_doc)) {
        return {Value(), false, Error("Invalid override policy document",
                                      "override_policy_documents[" + std::to_string(i) + "] is not a JSON policy document.")};
      }
      merged.Merge(override_doc);
    }

    ojson doc = ojson::object();
    if (!merged.version.empty()) doc["Version"] = merged.version;
    if (!merged.id.empty()) doc["Id"] = merged.id;
    if (!merged.statements.empty()) doc["Statement"] = merged.statements;
    std::string text = GoEscape(doc.dump(2));
    std::string minified = GoEscape(doc.dump());
    Value state = Value::Object({{"id", Value::String(std::to_string(Crc32(text)))},
                                 {"version", Get(config, "version")},
                                 {"policy_id", Get(config, "policy_id")},
                                 {"statement", Get(config, "statement")},
                                 {"source_policy_documents", Get(config, "source_policy_documents")},
                                 {"override_policy_documents", Get(config, "override_policy_documents")},
                                 {"json", Value::String(text)},
                                 {"minified_json", Value::String(minified)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsIamPolicyDocument(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsIamPolicyDocument>(std::move(session));
}

}  // namespace strata::aws
