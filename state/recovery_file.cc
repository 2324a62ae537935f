#include "state/recovery_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "state/environments.h"
#include "state/private_file.h"
#include "state/state.h"

namespace strata::state {

using nlohmann::json;

namespace {

constexpr const char* kRecoveryKind = "strata recovery";

const char* RecoveryKindName(RecoveryWrite::Kind kind) {
  switch (kind) {
    case RecoveryWrite::Kind::Complete: return "complete";
    case RecoveryWrite::Kind::Fail: return "fail";
    case RecoveryWrite::Kind::Put: return "put";
    case RecoveryWrite::Kind::Delete: return "delete";
    case RecoveryWrite::Kind::RestoreDeposed: return "restore_deposed";
  }
  return "complete";
}

std::optional<RecoveryWrite::Kind> ParseRecoveryKind(const std::string& text) {
  for (auto k : {RecoveryWrite::Kind::Complete, RecoveryWrite::Kind::Fail, RecoveryWrite::Kind::Put,
                 RecoveryWrite::Kind::Delete, RecoveryWrite::Kind::RestoreDeposed}) {
    if (text == RecoveryKindName(k)) return k;
  }
  return std::nullopt;
}

json RecoveryWriteToJson(const RecoveryWrite& w) {
  json j = {{"kind", RecoveryKindName(w.kind)}, {"address", w.address}};
  if (w.kind == RecoveryWrite::Kind::Complete || w.kind == RecoveryWrite::Kind::Fail) j["operation_id"] = w.operation_id;
  if (w.kind == RecoveryWrite::Kind::Fail) j["error"] = w.error;
  if (w.kind == RecoveryWrite::Kind::RestoreDeposed) j["key"] = w.key;
  if (w.kind != RecoveryWrite::Kind::Delete && w.kind != RecoveryWrite::Kind::RestoreDeposed) {
    j["resource"] = w.resource ? ToJson(*w.resource) : json(nullptr);
  }
  return j;
}

}  // namespace

json ToJson(const RecoveryFile& f) {
  json writes = json::array();
  for (const RecoveryWrite& w : f.writes) writes.push_back(RecoveryWriteToJson(w));
  json outputs = nullptr;
  if (f.outputs) {
    outputs = json::array();
    for (const StoredOutput& o : *f.outputs) outputs.push_back(ToJson(o));
  }
  return json{{"format_version", RecoveryFile::kFormatVersion},
              {"kind", kRecoveryKind},
              {"id", f.id},
              {"environment", f.environment},
              {"stage", f.stage},
              {"lineage", f.lineage},
              {"base_serial", f.base_serial},
              {"change_set", f.change_set},
              {"operation", f.operation},
              {"created_at", FormatTimestamp(f.created_at)},
              {"created_at_ms", f.created_at},
              {"where", f.where},
              {"reason", f.reason},
              {"secrets", f.secrets_masked ? "masked" : "sealed"},
              {"key_id", f.key_id},
              {"not_started", f.not_started},
              {"writes", std::move(writes)},
              {"outputs", std::move(outputs)},
              {"committed", f.committed}};
}

StateResult<RecoveryFile> RecoveryFileFromJson(const json& j) {
  auto bad = [](const std::string& what) {
    return StateStatus::Error(StateCode::InvalidArgument, "not a valid recovery file: " + what);
  };
  if (!j.is_object() || j.value("kind", "") != kRecoveryKind) return bad("it is not a strata recovery file");
  if (!j.contains("format_version") || !j["format_version"].is_number_integer()) return bad("no format_version");
  int version = j["format_version"].get<int>();
  if (version > RecoveryFile::kFormatVersion) {
    return StateStatus::Error(StateCode::SchemaTooNew,
                              "the recovery file has format_version " + std::to_string(version) +
                                  ", newer than this strata reads (" + std::to_string(RecoveryFile::kFormatVersion) +
                                  "): push it with the strata that wrote it");
  }
  try {
    RecoveryFile f;
    f.id = j.at("id").get<std::string>();
    f.environment = j.at("environment").get<std::string>();
    f.stage = j.at("stage").get<std::string>();
    f.lineage = j.at("lineage").get<std::string>();
    f.base_serial = j.at("base_serial").get<int64_t>();
    f.change_set = j.at("change_set").get<int64_t>();
    f.operation = j.at("operation").get<std::string>();
    f.created_at = j.value("created_at_ms", int64_t{0});
    f.where = j.value("where", "");
    f.reason = j.value("reason", "");
    f.secrets_masked = j.at("secrets").get<std::string>() == "masked";
    f.key_id = j.value("key_id", "");
    f.not_started = j.value("not_started", std::vector<std::string>{});
    for (const json& w : j.at("writes")) {
      RecoveryWrite write;
      auto kind = ParseRecoveryKind(w.at("kind").get<std::string>());
      if (!kind) return bad("unknown write kind " + w.at("kind").dump());
      write.kind = *kind;
      write.address = w.at("address").get<std::string>();
      write.operation_id = w.value("operation_id", int64_t{0});
      write.error = w.value("error", "");
      write.key = w.value("key", "");
      if (w.contains("resource") && !w["resource"].is_null()) write.resource = StoredResourceFromJson(w["resource"]);
      f.writes.push_back(std::move(write));
    }
    if (j.contains("outputs") && !j["outputs"].is_null()) {
      f.outputs.emplace();
      for (const json& o : j["outputs"]) f.outputs->push_back(StoredOutputFromJson(o));
    }
    f.committed = j.value("committed", false);
    return f;
  } catch (const json::exception& e) {
    return bad(e.what());
  }
}

std::string RecoveryDir(const std::string& root_dir) {
  return (std::filesystem::path(root_dir) / ".strata" / "recovery").string();
}

std::string RecoveryFileName(const RecoveryFile& file) {
  std::string time = FormatTimestamp(file.created_at);  // 2026-11-27T06:01:02Z
  std::erase_if(time, [](char c) { return c == '-' || c == ':'; });
  std::string prefix = file.environment == kDefaultEnvironment ? "" : file.environment + ".";
  return prefix + file.stage + "-" + time + ".json";
}

StateStatus WriteRecoveryFile(const std::string& path, const RecoveryFile& file) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::filesystem::create_directories(dir, ec);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ec);
  return WritePrivateFile(path, ToJson(file).dump(2) + "\n", "recovery file", StateEnvironment::System());
}

StateResult<RecoveryFile> ReadRecoveryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return StateStatus::Error(StateCode::NotFound, "cannot read the recovery file " + path);
  std::stringstream text;
  text << in.rdbuf();
  json j = json::parse(text.str(), nullptr, false);
  if (j.is_discarded()) {
    return StateStatus::Error(StateCode::Corrupt, "the recovery file " + path + " is not valid JSON (cut short?)");
  }
  auto file = RecoveryFileFromJson(j);
  if (!file.ok()) return StateStatus::Error(file.status().code(), path + ": " + file.status().message());
  return file;
}

std::vector<std::string> PendingRecoveryFiles(const std::string& dir, const std::string& environment,
                                              const std::string& stage) {
  std::vector<std::pair<int64_t, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::string path = entry.path().string();
    auto file = ReadRecoveryFile(path);
    if (file.ok() && (file->environment != environment || (!stage.empty() && file->stage != stage))) continue;
    found.emplace_back(file.ok() ? file->created_at : 0, path);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& [at, path] : found) out.push_back(std::move(path));
  return out;
}

}  // namespace strata::state
