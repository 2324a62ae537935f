#include "state/stored_rows.h"

#include "state/crypto/sealer.h"
#include "state/sensitive_paths.h"

namespace strata::state {
namespace {

using nlohmann::json;

struct SealedParts {
  std::string clear, paths, secrets;
};

SealedParts SealValue(const Value& v, const crypto::KeyRing& ring, StateEnvironment& env) {
  SensitiveSplit split = SplitSensitive(v);
  json paths = json::array(), secrets = json::array();
  for (size_t i = 0; i < split.paths.size(); ++i) {
    paths.push_back(split.paths[i]);
    secrets.push_back(crypto::Seal(split.values[i].dump(), ring, env));
  }
  return {split.clear.dump(), paths.dump(), secrets.dump()};
}

StateResult<Value> OpenValue(const std::string& clear_text, const std::string& paths_text,
                             const std::string& secrets_text, const crypto::KeyRing& ring, bool decrypt,
                             const std::string& what) {
  json clear = json::parse(clear_text, nullptr, false);
  json paths = json::parse(paths_text, nullptr, false);
  json secrets = json::parse(secrets_text, nullptr, false);
  if (clear.is_discarded() || !paths.is_array() || !secrets.is_array() || paths.size() != secrets.size()) {
    return StateStatus::Error(StateCode::Corrupt, what + ": the stored value is not valid JSON");
  }
  std::vector<json> path_list(paths.begin(), paths.end());
  std::vector<std::optional<json>> values(path_list.size());
  if (decrypt) {
    for (size_t i = 0; i < path_list.size(); ++i) {
      if (!secrets[i].is_string()) return StateStatus::Error(StateCode::Corrupt, what + ": malformed secret");
      std::string where = what + (path_list[i].empty() ? "" : " attribute " + path_list[i].dump());
      auto plain = crypto::Open(secrets[i].get<std::string>(), ring, where);
      if (!plain.ok()) return plain.status();
      json v = json::parse(*plain, nullptr, false);
      if (v.is_discarded()) return StateStatus::Error(StateCode::Corrupt, where + ": the decrypted value is not JSON");
      values[i] = std::move(v);
    }
  }
  return JoinSensitive(clear, path_list, values);
}

ResourceMode ModeOf(const std::string& mode) { return mode == "data" ? ResourceMode::Data : ResourceMode::Managed; }

}  // namespace

StoredResource EncodeResource(const ResourceInstanceState& r, const crypto::KeyRing& ring, StateEnvironment& env) {
  StoredResource row;
  row.address = r.addr.ToString();
  row.deposed = r.deposed;
  row.mode = r.addr.resource.mode == ResourceMode::Data ? "data" : "managed";
  row.type = r.addr.resource.type;
  row.provider = r.provider;
  row.status = ToString(r.status);
  SealedParts parts = SealValue(r.attributes, ring, env);
  row.attributes = std::move(parts.clear);
  row.sensitive_paths = std::move(parts.paths);
  row.secrets = std::move(parts.secrets);
  row.dependencies = json(r.dependencies).dump();
  row.idempotency_token = r.idempotency_token;
  row.schema_version = r.schema_version;
  row.created_at = r.created_at;
  row.updated_at = r.updated_at;
  return row;
}

StateResult<ResourceInstanceState> DecodeResource(const StoredResource& row, const crypto::KeyRing& ring,
                                                  bool decrypt, const std::string& stage) {
  std::string what = "stage " + stage + ": " + row.address;
  ResourceInstanceState r;
  AddrParseResult parsed = ParseResourceInstanceAddr(row.address);
  auto status = ParseResourceStatus(row.status);
  json deps = json::parse(row.dependencies, nullptr, false);
  if (!parsed.addr || !status || !deps.is_array()) {
    return StateStatus::Error(StateCode::Corrupt, what + ": the stored instance is malformed");
  }
  r.addr = *parsed.addr;
  r.addr.resource.mode = ModeOf(row.mode);
  r.deposed = row.deposed;
  r.provider = row.provider;
  r.status = *status;
  auto attrs = OpenValue(row.attributes, row.sensitive_paths, row.secrets, ring, decrypt, what);
  if (!attrs.ok()) return attrs.status();
  r.attributes = std::move(*attrs);
  for (const auto& d : deps) {
    if (d.is_string()) r.dependencies.push_back(d.get<std::string>());
  }
  r.idempotency_token = row.idempotency_token;
  r.schema_version = row.schema_version;
  r.created_at = row.created_at;
  r.updated_at = row.updated_at;
  return r;
}

StoredOutput EncodeOutput(const OutputState& o, const crypto::KeyRing& ring, StateEnvironment& env) {
  StoredOutput row;
  row.name = o.name;
  row.sensitive = o.sensitive;
  SealedParts parts = SealValue(o.sensitive ? o.value.MarkSensitive() : o.value, ring, env);
  row.value = std::move(parts.clear);
  row.sensitive_paths = std::move(parts.paths);
  row.secrets = std::move(parts.secrets);
  return row;
}

StateResult<OutputState> DecodeOutput(const StoredOutput& row, const crypto::KeyRing& ring, bool decrypt,
                                      const std::string& stage) {
  auto value = OpenValue(row.value, row.sensitive_paths, row.secrets, ring, decrypt,
                         "stage " + stage + ": output " + row.name);
  if (!value.ok()) return value.status();
  return OutputState{row.name, std::move(*value), row.sensitive};
}

StateResult<std::string> ResealSecrets(const std::string& secrets_text, const crypto::KeyRing& ring,
                                       StateEnvironment& env, const std::string& what, int64_t& resealed) {
  json secrets = json::parse(secrets_text, nullptr, false);
  if (!secrets.is_array()) return StateStatus::Error(StateCode::Corrupt, what + ": malformed secrets");
  bool changed = false;
  for (auto& s : secrets) {
    if (!s.is_string()) return StateStatus::Error(StateCode::Corrupt, what + ": malformed secret");
    std::string sealed = s.get<std::string>();
    std::string target_id = ring.primary ? ring.primary->id : "";
    if (crypto::SealedKeyId(sealed) == target_id && (!target_id.empty() || crypto::IsSealedInClear(sealed))) continue;
    auto plain = crypto::Open(sealed, ring, what);
    if (!plain.ok()) return plain.status();
    s = crypto::Seal(*plain, ring, env);
    ++resealed;
    changed = true;
  }
  return changed ? secrets.dump() : secrets_text;
}

json ToJson(const StoredResource& r) {
  json j{{"address", r.address},
         {"mode", r.mode},
         {"type", r.type},
         {"provider", r.provider},
         {"status", r.status},
         {"attributes", r.attributes},
         {"sensitive_paths", r.sensitive_paths},
         {"secrets", r.secrets},
         {"dependencies", r.dependencies},
         {"idempotency_token", r.idempotency_token},
         {"schema_version", r.schema_version},
         {"created_at", r.created_at},
         {"updated_at", r.updated_at}};
  // Only on deposed objects, so that snapshots of states without any read as before.
  if (!r.deposed.empty()) j["deposed"] = r.deposed;
  return j;
}

json ToJson(const StoredOutput& o) {
  return json{{"name", o.name},
              {"value", o.value},
              {"sensitive", o.sensitive},
              {"sensitive_paths", o.sensitive_paths},
              {"secrets", o.secrets}};
}

StoredResource StoredResourceFromJson(const json& j) {
  StoredResource r;
  r.address = j.at("address").get<std::string>();
  r.deposed = j.value("deposed", "");
  r.mode = j.at("mode").get<std::string>();
  r.type = j.at("type").get<std::string>();
  r.provider = j.at("provider").get<std::string>();
  r.status = j.at("status").get<std::string>();
  r.attributes = j.at("attributes").get<std::string>();
  r.sensitive_paths = j.at("sensitive_paths").get<std::string>();
  r.secrets = j.at("secrets").get<std::string>();
  r.dependencies = j.at("dependencies").get<std::string>();
  r.idempotency_token = j.at("idempotency_token").get<std::string>();
  r.schema_version = j.at("schema_version").get<int64_t>();
  r.created_at = j.at("created_at").get<int64_t>();
  r.updated_at = j.at("updated_at").get<int64_t>();
  return r;
}

StoredOutput StoredOutputFromJson(const json& j) {
  StoredOutput o;
  o.name = j.at("name").get<std::string>();
  o.value = j.at("value").get<std::string>();
  o.sensitive = j.at("sensitive").get<bool>();
  o.sensitive_paths = j.at("sensitive_paths").get<std::string>();
  o.secrets = j.at("secrets").get<std::string>();
  return o;
}

}  // namespace strata::state
