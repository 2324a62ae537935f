#include "sandbox/services/eks/eks_common.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "sandbox/protocol/json_body.h"
#include "sandbox/protocol/json_response.h"

namespace strata::sandbox::eks {

namespace {

int64_t Ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

int64_t LifecycleMs(const Json& doc, const char* member) {
  const Json& lifecycle = doc.at("lifecycle");
  auto it = lifecycle.find(member);
  return it == lifecycle.end() || !it->is_number() ? 0 : it->get<int64_t>();
}

[[noreturn]] void ThrowWrongType(const std::string& label, const std::string& key,
                                 const char* expected) {
  ThrowInvalidParameter(label + key + " must be " + expected + ".");
}

const Json* Member(const Json& obj, const std::string& key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

}  // namespace

std::string Region(const ServiceContext& ctx) { return RegionOf(ctx); }

std::string EksArn(const ServiceContext& ctx, const std::string& resource) {
  return "arn:aws:eks:" + Region(ctx) + ":" + ctx.settings.account_id + ":" + resource;
}

std::string ClusterKey(const ServiceContext& ctx, const std::string& cluster) {
  return Region(ctx) + "/" + cluster;
}

std::string ChildKey(const ServiceContext& ctx, const std::string& cluster,
                     const std::string& child) {
  return Region(ctx) + "/" + cluster + "/" + child;
}

std::vector<std::string> ChildKeys(const ServiceContext& ctx, const char* kind,
                                   const std::string& cluster) {
  std::string prefix = ClusterKey(ctx, cluster) + "/";
  std::vector<std::string> keys;
  for (const auto& [key, doc] : ctx.world.List(kind)) {
    if (key.compare(0, prefix.size(), prefix) == 0) keys.push_back(key);
  }
  return keys;
}

const std::vector<std::string>& SupportedKubernetesVersions() {
  static const std::vector<std::string> kVersions = {"1.28", "1.29", "1.30",
                                                     "1.31", "1.32", "1.33"};
  return kVersions;
}

int MinorOf(const std::string& version) {
  size_t dot = version.find('.');
  return dot == std::string::npos ? -1 : std::atoi(version.c_str() + dot + 1);
}

int64_t NowMs(const ServiceContext& ctx) { return Ms(ctx.now); }

int64_t MsFromNow(const ServiceContext& ctx, Millis delay) { return NowMs(ctx) + delay.count(); }

double NowEpoch(const ServiceContext& ctx) { return EpochSeconds(ctx.now); }

Json NewLifecycle(const ServiceContext& ctx, Millis delay) {
  return Json{{"createdMs", NowMs(ctx)}, {"readyMs", MsFromNow(ctx, delay)}};
}

Phase PhaseOf(const ServiceContext& ctx, const Json& doc) {
  int64_t now = NowMs(ctx);
  const Json& lifecycle = doc.at("lifecycle");
  if (lifecycle.contains("goneMs")) {
    return now >= LifecycleMs(doc, "goneMs") ? Phase::Gone : Phase::Deleting;
  }
  if (now < LifecycleMs(doc, "readyMs")) return Phase::Creating;
  if (now < LifecycleMs(doc, "updatingUntilMs")) return Phase::Updating;
  return Phase::Active;
}

bool WasReady(const ServiceContext& ctx, const Json& doc) {
  return NowMs(ctx) >= LifecycleMs(doc, "readyMs");
}

void BeginUpdating(const ServiceContext& ctx, Json& doc, Millis delay) {
  doc["lifecycle"]["updatingUntilMs"] = MsFromNow(ctx, delay);
}

void BeginDeleting(const ServiceContext& ctx, Json& doc, Millis delay) {
  doc["lifecycle"]["goneMs"] = MsFromNow(ctx, delay);
}

std::string StatusWord(Phase phase) {
  switch (phase) {
    case Phase::Creating:
      return "CREATING";
    case Phase::Active:
      return "ACTIVE";
    case Phase::Updating:
      return "UPDATING";
    case Phase::Deleting:
    case Phase::Gone:
      return "DELETING";
  }
  return "ACTIVE";
}

Json ObjectBody(const ServiceContext& ctx) { return ParseJsonObjectBody(ctx.request.body); }

std::string RequiredString(const Json& obj, const std::string& key, const std::string& label) {
  std::optional<std::string> value = OptionalString(obj, key, label);
  if (!value || value->empty()) ThrowInvalidParameter(label + key + " is required.");
  return *value;
}

std::optional<std::string> OptionalString(const Json& obj, const std::string& key,
                                          const std::string& label) {
  const Json* value = Member(obj, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) ThrowWrongType(label, key, "a string");
  return value->get<std::string>();
}

std::optional<bool> OptionalBool(const Json& obj, const std::string& key,
                                 const std::string& label) {
  const Json* value = Member(obj, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_boolean()) ThrowWrongType(label, key, "a boolean");
  return value->get<bool>();
}

std::optional<int64_t> OptionalInt(const Json& obj, const std::string& key,
                                   const std::string& label) {
  const Json* value = Member(obj, key);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_integer()) return value->get<int64_t>();
  if (value->is_number_float()) {
    double d = value->get<double>();
    if (d == static_cast<double>(static_cast<int64_t>(d))) return static_cast<int64_t>(d);
  }
  ThrowWrongType(label, key, "an integer");
}

std::optional<std::vector<std::string>> OptionalStringList(const Json& obj, const std::string& key,
                                                           const std::string& label) {
  const Json* value = Member(obj, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_array()) ThrowWrongType(label, key, "a list of strings");
  std::vector<std::string> out;
  for (const Json& item : *value) {
    if (!item.is_string()) ThrowWrongType(label, key, "a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::optional<std::map<std::string, std::string>> OptionalStringMap(const Json& obj,
                                                                    const std::string& key,
                                                                    const std::string& label) {
  const Json* value = Member(obj, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_object()) ThrowWrongType(label, key, "a map of strings");
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : value->items()) {
    if (!v.is_string()) ThrowWrongType(label, key, "a map of strings");
    out[k] = v.get<std::string>();
  }
  return out;
}

const Json* OptionalObject(const Json& obj, const std::string& key, const std::string& label) {
  const Json* value = Member(obj, key);
  if (value != nullptr && !value->is_object()) ThrowWrongType(label, key, "an object");
  return value;
}

const Json* OptionalArray(const Json& obj, const std::string& key, const std::string& label) {
  const Json* value = Member(obj, key);
  if (value != nullptr && !value->is_array()) ThrowWrongType(label, key, "a list");
  return value;
}

Json CheckedTags(const std::map<std::string, std::string>& tags, const std::string& error_code) {
  auto refuse = [&](const std::string& message) { throw ApiError(400, error_code, message); };
  if (tags.size() > 50) refuse("A resource can have at most 50 tags.");
  Json out = Json::object();
  for (const auto& [key, value] : tags) {
    if (key.empty() || key.size() > 128) {
      refuse("Tag keys must be between 1 and 128 characters: '" + key + "'.");
    }
    if (key.compare(0, 4, "aws:") == 0) {
      refuse("Tag keys starting with 'aws:' are reserved for AWS use: '" + key + "'.");
    }
    if (value.size() > 256) refuse("Tag values can be at most 256 characters (key '" + key + "').");
    out[key] = value;
  }
  return out;
}

void CheckName(const std::string& name, const std::string& what) {
  bool valid =
      !name.empty() && name.size() <= 100 && std::isalnum(static_cast<unsigned char>(name[0]));
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') valid = false;
  }
  if (!valid) {
    ThrowInvalidParameter("The " + what + " name '" + name +
                          "' is not valid: use 1-100 letters, digits, hyphens and underscores, "
                          "starting with a letter or digit.");
  }
}

Json Paginate(const ServiceContext& ctx, const std::vector<std::string>& names,
              const std::string& member) {
  size_t max_results = 100;
  size_t start = 0;
  for (const auto& [key, value] : ctx.request.query) {
    if (key == "maxResults") {
      size_t used = 0;
      long parsed = 0;
      try {
        parsed = std::stol(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != value.size() || parsed < 1 || parsed > 100) {
        ThrowInvalidParameter("maxResults must be an integer between 1 and 100.");
      }
      max_results = static_cast<size_t>(parsed);
    } else if (key == "nextToken") {
      // Tokens are "<offset>-of-<member>"; anything else was not ours.
      std::string suffix = "-of-" + member;
      size_t used = 0;
      unsigned long parsed = 0;
      try {
        parsed = std::stoul(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || value.substr(used) != suffix) {
        ThrowInvalidParameter("The nextToken '" + value + "' is not valid.");
      }
      start = static_cast<size_t>(parsed);
    }
  }
  Json page = Json::array();
  size_t end = std::min(names.size(), start + max_results);
  for (size_t i = start; i < end; ++i) page.push_back(names[i]);
  Json out = {{member, page}};
  if (end < names.size()) out["nextToken"] = std::to_string(end) + "-of-" + member;
  return out;
}

Response JsonResponse(const ServiceContext& ctx, const Json& body, int status) {
  return sandbox::JsonResponse(body, ctx.request.request_id, status);
}

void ThrowInvalidParameter(const std::string& message) {
  throw ApiError(400, "InvalidParameterException", message);
}

void ThrowInvalidRequest(const std::string& message) {
  throw ApiError(400, "InvalidRequestException", message);
}

void ThrowNotFound(const std::string& message) {
  throw ApiError(404, "ResourceNotFoundException", message);
}

void ThrowInUse(const std::string& message) {
  throw ApiError(409, "ResourceInUseException", message);
}

Json UpdateParam(const std::string& type, const std::string& value) {
  return Json{{"type", type}, {"value", value}};
}

}  // namespace strata::sandbox::eks
