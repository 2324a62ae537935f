// Schemas of the built-in provider's types, with Terraform's attribute names.
#include "providers/schema_registry.h"

namespace strata {
namespace {

Type T(const char* text) { return *ParseType(text).type; }

AttributeSchema Required(const char* type, bool force_new = false) {
  AttributeSchema a;
  a.type = T(type);
  a.required = true;
  a.force_new = force_new;
  return a;
}

AttributeSchema Optional(const char* type, bool force_new = false) {
  AttributeSchema a;
  a.type = T(type);
  a.optional = true;
  a.force_new = force_new;
  return a;
}

AttributeSchema Computed(const char* type, bool sensitive = false) {
  AttributeSchema a;
  a.type = T(type);
  a.computed = true;
  a.sensitive = sensitive;
  return a;
}

ResourceSchema Managed(const char* type, std::map<std::string, AttributeSchema> attributes) {
  ResourceSchema s;
  s.type = type;
  s.attributes = std::move(attributes);
  s.attributes["id"] = Computed("string");
  return s;
}

}  // namespace

void AddBuiltinSchemas(SchemaRegistry& registry) {
  registry.Add(Managed("null_resource", {{"triggers", Optional("map(string)", true)}}));
  registry.Add(Managed("terraform_data", {{"input", Optional("any")},
                                          {"output", Computed("any")},
                                          {"triggers_replace", Optional("any", true)}}));
  registry.Add(Managed("random_id", {{"byte_length", Required("number", true)},
                                     {"prefix", Optional("string", true)},
                                     {"keepers", Optional("map(string)", true)},
                                     {"b64_url", Computed("string")},
                                     {"b64_std", Computed("string")},
                                     {"hex", Computed("string")},
                                     {"dec", Computed("string")}}));
  std::map<std::string, AttributeSchema> random_string = {
      {"length", Required("number", true)},       {"keepers", Optional("map(string)", true)},
      {"special", Optional("bool", true)},        {"upper", Optional("bool", true)},
      {"lower", Optional("bool", true)},          {"numeric", Optional("bool", true)},
      {"min_special", Optional("number", true)},  {"min_upper", Optional("number", true)},
      {"min_lower", Optional("number", true)},    {"min_numeric", Optional("number", true)},
      {"override_special", Optional("string", true)}, {"result", Computed("string")}};
  registry.Add(Managed("random_string", random_string));
  random_string["result"] = Computed("string", /*sensitive=*/true);
  random_string["bcrypt_hash"] = Computed("string", /*sensitive=*/true);
  registry.Add(Managed("random_password", random_string));
  registry.Add(Managed("local_file", {{"filename", Required("string", true)},
                                      {"content", Optional("string", true)},
                                      {"sensitive_content", Optional("string", true)},
                                      {"content_base64", Optional("string", true)},
                                      {"file_permission", Optional("string", true)},
                                      {"directory_permission", Optional("string", true)},
                                      {"content_md5", Computed("string")},
                                      {"content_sha256", Computed("string")}}));
  registry.Add(Managed("time_sleep", {{"create_duration", Optional("string")},
                                      {"destroy_duration", Optional("string")},
                                      {"triggers", Optional("map(string)", true)}}));
  registry.Add(Managed("exec", {{"command", Required("list(string)", true)},
                                {"destroy_command", Optional("list(string)")},
                                {"environment", Optional("map(string)", true)},
                                {"working_dir", Optional("string", true)},
                                {"timeout", Optional("string")},
                                {"triggers", Optional("map(string)", true)},
                                {"stdout", Computed("string")},
                                {"stderr", Computed("string")},
                                {"exit_code", Computed("number")}}));
  registry.Add(Managed("local_sensitive_file", {{"filename", Required("string", true)},
                                                {"content", Optional("string", true)},
                                                {"file_permission", Optional("string", true)}}));
  ResourceSchema local_file_data;
  local_file_data.type = "local_file";
  local_file_data.mode = ResourceMode::Data;
  local_file_data.attributes = {{"filename", Required("string")},
                                {"content", Computed("string")},
                                {"content_base64", Computed("string")},
                                {"id", Computed("string")}};
  registry.Add(local_file_data);
}

}  // namespace strata
