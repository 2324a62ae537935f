#include "providers/aws/services/eks/eks_api.h"

#include <algorithm>
#include <cmath>
#include <ctime>

#include "providers/resource_type.h"

namespace strata::aws {

std::string EksPath(const std::vector<std::string>& segments) {
  std::string path;
  for (const std::string& s : segments) path += "/" + EncodePathLabel(s);
  return path.empty() ? "/" : path;
}

Result<nlohmann::json> CallEks(const AwsSession& session, const OperationContext& ctx,
                               const std::string& operation, const RestJsonRequest& call) {
  ctx.Log(LogLevel::Debug, "eks:" + operation);
  return session.client->RestJson("eks", call, CallOptionsFor(ctx));
}


Value EksTimestamp(const nlohmann::json& j, const std::string& key) {
  if (!j.is_object()) return Value();
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Value();
  if (it->is_string()) return Value::String(it->get<std::string>());
  if (!it->is_number()) return Value();
  auto seconds = std::chrono::seconds(static_cast<int64_t>(std::floor(it->get<double>())));
  return Value::String(FormatRfc3339(std::chrono::system_clock::time_point(seconds)));
}

Value JsonStringList(const nlohmann::json& j, const std::string& key, bool as_set) {
  ValueList items;
  if (j.is_object()) {
    auto it = j.find(key);
    if (it != j.end() && it->is_array()) {
      for (const auto& e : *it) {
        if (e.is_string()) items.push_back(Value::String(e.get<std::string>()));
      }
    }
  }
  return as_set ? Value::Set(std::move(items)) : Value::List(std::move(items));
}

TagMap JsonStringMap(const nlohmann::json& j, const std::string& key) {
  TagMap out;
  if (!j.is_object()) return out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return out;
  for (auto e = it->begin(); e != it->end(); ++e) {
    if (e.value().is_string()) out[e.key()] = e.value().get<std::string>();
  }
  return out;
}

std::pair<std::string, std::string> SplitClusterScopedId(const Value& v, const char* name_attribute) {
  std::string id = attrs::GetString(v, "id");
  size_t colon = id.find(':');
  if (colon != std::string::npos) return {id.substr(0, colon), id.substr(colon + 1)};
  return {attrs::GetString(v, "cluster_name"), attrs::GetString(v, name_attribute)};
}

TagMap EksTags(const nlohmann::json& object, std::string* token) {
  TagMap tags = JsonStringMap(object, "tags");
  auto it = tags.find(kCreateTokenTag);
  if (token) *token = it == tags.end() ? "" : it->second;
  if (it != tags.end()) tags.erase(it);
  return tags;
}

ReadResult ClaimIfTaggedByThisCreate(const OperationContext& ctx, const Result<nlohmann::json>& described,
                                     const std::string& action, const char* member,
                                     const std::function<ReadResult()>& read) {
  if (!described.ok()) {
    if (described.error().code == kEksNotFound) return {Value(), true, {}};
    return {Value(), false, AwsErrorDiag(action, described.error())};
  }
  std::string token;
  EksTags((*described)[member], &token);
  if (ctx.idempotency_token.empty() || token != ctx.idempotency_token) return {Value(), true, {}};
  return read();
}

nlohmann::json ToJson(const TagMap& m) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : m) out[k] = v;
  return out;
}

nlohmann::json ToJson(const std::vector<std::string>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : v) out.push_back(s);
  return out;
}

namespace {

std::string Elapsed(std::chrono::seconds s) {
  long total = static_cast<long>(s.count());
  if (total < 60) return std::to_string(total) + "s";
  return std::to_string(total / 60) + "m" + std::to_string(total % 60) + "s";
}

}  // namespace

Diagnostics WaitUntil(const AwsSession& session, const OperationContext& ctx,
                      const EksWaitOptions& options, const std::function<EksPoll()>& poll) {
  Clock& clock = *session.client->deps().clock;
  const TimePoint start = clock.Now();
  const TimePoint give_up = start + options.limit;
  auto delay = options.initial;
  for (;;) {
    EksPoll seen = poll();
    if (seen.outcome == EksPoll::Outcome::Done) return {};
    if (seen.outcome == EksPoll::Outcome::Failed) return seen.diags;
    auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(clock.Now() - start);
    std::string line = options.what + ": still " + seen.status + " (" + Elapsed(elapsed) + " elapsed)";
    ctx.Log(LogLevel::Info, line);
    ctx.Progress(line);
    // Sleep `delay` in slices, watching cancellation, the deadline and our own limit.
    auto wake = clock.Now() + delay;
    while (clock.Now() < wake) {
      if (ctx.Cancelled()) {
        return attrs::Error("Operation cancelled",
                              "Stopped waiting for " + options.what + " (last status " + seen.status + ").");
      }
      if (ctx.DeadlinePassed() || clock.Now() >= give_up) {
        return attrs::Error("Timed out waiting for " + options.what,
                              "Gave up after " + Elapsed(elapsed) + "; the last status was " +
                                  seen.status + ". The operation may still complete in AWS.");
      }
      auto left = std::chrono::duration_cast<Duration>(wake - clock.Now());
      Duration slice = std::min<Duration>(left, std::chrono::seconds(1));
      if (ctx.deadline) {  // wake at the deadline, not up to a slice after it
        slice = std::min(slice, std::chrono::ceil<Duration>(*ctx.deadline - OperationContext::Clock::now()));
      }
      clock.SleepFor(std::max(Duration(0), slice));
    }
    delay = std::min<std::chrono::milliseconds>(delay + delay / 2, options.cap);
  }
}

namespace {

Diagnostics UpdateFailed(const std::string& what, const nlohmann::json& update) {
  std::string detail = "Update " + JsonString(update, "id") + " (" + JsonString(update, "type") +
                       ") of " + what + " ended " + JsonString(update, "status");
  auto errors = update.find("errors");
  if (errors != update.end() && errors->is_array()) {
    for (const auto& e : *errors) {
      detail += "; " + JsonString(e, "errorCode") + ": " + JsonString(e, "errorMessage");
    }
  }
  return attrs::Error("EKS update failed", detail + ".");
}

}  // namespace

Diagnostics WaitForEksUpdate(const AwsSession& session, const OperationContext& ctx,
                             const std::string& cluster, const nlohmann::json& response,
                             const std::string& nodegroup, const std::string& addon,
                             const EksWaitOptions& options) {
  if (!response.is_object() || !response.contains("update")) return {};
  const nlohmann::json& first = response["update"];
  std::string id = JsonString(first, "id");
  std::string status = JsonString(first, "status");
  if (status == "Successful" || id.empty()) return {};
  if (status == "Failed" || status == "Cancelled") return UpdateFailed(options.what, first);
  EksWaitOptions wait = options;
  wait.what = options.what + " update " + id;
  return WaitUntil(session, ctx, wait, [&]() {
    RestJsonRequest call;
    call.path = EksPath({"clusters", cluster, "updates", id});
    if (!nodegroup.empty()) call.query.push_back({"nodegroupName", nodegroup});
    if (!addon.empty()) call.query.push_back({"addonName", addon});
    Result<nlohmann::json> got = CallEks(session, ctx, "DescribeUpdate", call);
    if (!got.ok()) return EksPoll::Failed(AwsErrorDiag("DescribeUpdate", got.error()));
    const nlohmann::json& update = (*got)["update"];
    std::string now = JsonString(update, "status");
    if (now == "Successful") return EksPoll::Done();
    if (now == "Failed" || now == "Cancelled") return EksPoll::Failed(UpdateFailed(options.what, update));
    return EksPoll::Pending(now.empty() ? "InProgress" : now);
  });
}

Diagnostics UpdateEksTags(const AwsSession& session, const OperationContext& ctx,
                          const std::string& arn, const TagMap& from, const TagMap& to) {
  RestJsonRequest untag;
  untag.method = "DELETE";
  untag.path = EksPath({"tags", arn});
  for (const std::string& k : RemovedTagKeys(from, to)) untag.query.push_back({"tagKeys", k});
  if (!untag.query.empty()) {
    Result<nlohmann::json> done = CallEks(session, ctx, "UntagResource", untag);
    if (!done.ok()) return AwsErrorDiag("UntagResource", done.error());
  }
  TagMap changed = ChangedTags(from, to);
  if (changed.empty()) return {};
  RestJsonRequest tag;
  tag.method = "POST";
  tag.path = EksPath({"tags", arn});
  tag.body = nlohmann::json{{"tags", ToJson(changed)}};
  Result<nlohmann::json> done = CallEks(session, ctx, "TagResource", tag);
  return done.ok() ? Diagnostics{} : AwsErrorDiag("TagResource", done.error());
}

Value CarryNested(const Value& planned, const Value& prior, const std::string& name,
                  const std::set<std::string>& carried) {
  Value block = attrs::Get(planned, name);
  if (!block.IsSequence()) return planned;
  Value prior_block = attrs::Get(prior, name);
  ValueList items;
  for (size_t i = 0; i < block.AsList().size(); ++i) {
    Value item = block.AsList()[i];
    Value old;
    if (prior_block.IsSequence() && i < prior_block.AsList().size()) old = prior_block.AsList()[i];
    for (const std::string& attr : carried) {
      if (!attrs::Get(item, attr).IsNull()) continue;
      item = attrs::With(item, attr, prior.IsNull() ? Value::Unknown() : attrs::Get(old, attr));
    }
    items.push_back(item);
  }
  return attrs::With(planned, name, Value::List(std::move(items)));
}

ValueMap EksClusterAttributes(const nlohmann::json& c) {
  using attrs::With;
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& vpc = c.contains("resourcesVpcConfig") ? c["resourcesVpcConfig"] : empty;
  const nlohmann::json& net = c.contains("kubernetesNetworkConfig") ? c["kubernetesNetworkConfig"] : empty;
  const nlohmann::json& access = c.contains("accessConfig") ? c["accessConfig"] : empty;

  auto boolean = [](const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? Value::Bool(it->get<bool>()) : Value();
  };
  auto string_or_null = [](const nlohmann::json& j, const char* key) {
    std::string s = JsonString(j, key);
    return s.empty() ? Value() : Value::String(s);
  };

  Value vpc_config = Value::Object({
      {"subnet_ids", JsonStringList(vpc, "subnetIds", true)},
      {"security_group_ids", JsonStringList(vpc, "securityGroupIds", true)},
      {"endpoint_private_access", boolean(vpc, "endpointPrivateAccess")},
      {"endpoint_public_access", boolean(vpc, "endpointPublicAccess")},
      {"public_access_cidrs", JsonStringList(vpc, "publicAccessCidrs", true)},
      {"cluster_security_group_id", string_or_null(vpc, "clusterSecurityGroupId")},
      {"vpc_id", string_or_null(vpc, "vpcId")},
  });
  Value network = Value::Object({{"service_ipv4_cidr", string_or_null(net, "serviceIpv4Cidr")},
                                 {"service_ipv6_cidr", string_or_null(net, "serviceIpv6Cidr")},
                                 {"ip_family", string_or_null(net, "ipFamily")}});
  // EKS omits ipFamily for clusters created before IPv6 support: it is ipv4 then.
  if (attrs::Get(network, "ip_family").IsNull()) network = With(network, "ip_family", Value::String("ipv4"));

  ValueList log_types;
  if (c.contains("logging") && c["logging"].contains("clusterLogging")) {
    for (const auto& entry : c["logging"]["clusterLogging"]) {
      if (!entry.value("enabled", false) || !entry.contains("types")) continue;
      for (const auto& t : entry["types"]) {
        if (t.is_string()) log_types.push_back(Value::String(t.get<std::string>()));
      }
    }
  }

  Value access_config;
  if (!access.empty()) {
    access_config = Value::List({Value::Object(
        {{"authentication_mode", string_or_null(access, "authenticationMode")},
         {"bootstrap_cluster_creator_admin_permissions",
          boolean(access, "bootstrapClusterCreatorAdminPermissions")}})});
  }

  Value encryption_config;
  if (c.contains("encryptionConfig") && c["encryptionConfig"].is_array() && !c["encryptionConfig"].empty()) {
    ValueList entries;
    for (const auto& entry : c["encryptionConfig"]) {
      std::string key = entry.contains("provider") ? JsonString(entry["provider"], "keyArn") : "";
      entries.push_back(Value::Object(
          {{"provider", Value::List({Value::Object({{"key_arn", Value::String(key)}})})},
           {"resources", JsonStringList(entry, "resources", true)}}));
    }
    encryption_config = Value::List(std::move(entries));
  }

  std::string ca = c.contains("certificateAuthority") ? JsonString(c["certificateAuthority"], "data") : "";
  std::string issuer;
  if (c.contains("identity") && c["identity"].contains("oidc")) issuer = JsonString(c["identity"]["oidc"], "issuer");

  return {
      {"name", Value::String(JsonString(c, "name"))},
      {"arn", Value::String(JsonString(c, "arn"))},
      {"endpoint", Value::String(JsonString(c, "endpoint"))},
      {"version", Value::String(JsonString(c, "version"))},
      {"status", Value::String(JsonString(c, "status"))},
      {"role_arn", Value::String(JsonString(c, "roleArn"))},
      {"platform_version", Value::String(JsonString(c, "platformVersion"))},
      {"created_at", EksTimestamp(c, "createdAt")},
      {"cluster_id", string_or_null(c, "id")},
      {"vpc_config", Value::List({vpc_config})},
      {"kubernetes_network_config", Value::List({network})},
      {"enabled_cluster_log_types", Value::Set(std::move(log_types))},
      {"access_config", access_config},
      {"encryption_config", encryption_config},
      {"certificate_authority", Value::List({Value::Object({{"data", Value::String(ca)}})})},
      {"identity", Value::List({Value::Object(
                       {{"oidc", Value::List({Value::Object({{"issuer", Value::String(issuer)}})})}})})},
  };
}

}  // namespace strata::aws
