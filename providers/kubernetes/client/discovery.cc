#include "providers/kubernetes/client/discovery.h"

namespace strata::kubernetes {

std::pair<std::string, std::string> SplitApiVersion(const std::string& api_version) {
  auto slash = api_version.find('/');
  if (slash == std::string::npos) return {"", api_version};
  return {api_version.substr(0, slash), api_version.substr(slash + 1)};
}

std::optional<ResourceInfo> Discovery::FindIn(const std::vector<ResourceInfo>& list, const std::string& kind) {
  for (const ResourceInfo& r : list) {
    if (r.kind == kind) return r;
  }
  return std::nullopt;
}

ApiResult<std::optional<ResourceInfo>> Discovery::Find(const OperationContext& ctx, const std::string& api_version,
                                                       const std::string& kind) {
  {
    std::lock_guard lock(mu_);
    auto it = lists_.find(api_version);
    if (it != lists_.end() && it->second) {
      if (auto found = FindIn(*it->second, kind)) return std::optional<ResourceInfo>(found);
    }
  }
  // Not known yet, or not listed when last fetched: a CRD may have added it since.
  auto fetched = Fetch(ctx, api_version);
  if (!fetched.ok()) return std::move(fetched).error();
  std::lock_guard lock(mu_);
  lists_[api_version] = *fetched;
  if (!*fetched) return std::optional<ResourceInfo>();
  return FindIn(**fetched, kind);
}

void Discovery::Forget(const std::string& api_version) {
  std::lock_guard lock(mu_);
  lists_.erase(api_version);
}

int Discovery::fetches() const {
  std::lock_guard lock(mu_);
  return fetches_;
}

ApiResult<std::optional<std::vector<ResourceInfo>>> Discovery::Fetch(const OperationContext& ctx,
                                                                      const std::string& api_version) {
  auto [group, version] = SplitApiVersion(api_version);
  ApiRequest request;
  request.path = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  {
    std::lock_guard lock(mu_);
    ++fetches_;
  }
  ApiResult<Json> answer = client_.Call(ctx, request);
  if (!answer.ok()) {
    if (answer.error().IsNotFound()) return std::optional<std::vector<ResourceInfo>>();  // no such group-version
    return std::move(answer).error();
  }
  std::vector<ResourceInfo> list;
  const Json& resources = answer->contains("resources") ? (*answer)["resources"] : Json::array();
  for (const Json& r : resources) {
    if (!r.is_object()) continue;
    std::string name = r.value("name", "");
    if (name.empty() || name.find('/') != std::string::npos) continue;  // subresources: "deployments/status"
    ResourceInfo info;
    info.group = group;
    info.version = version;
    info.kind = r.value("kind", "");
    info.resource = name;
    info.namespaced = r.value("namespaced", false);
    if (r.contains("verbs") && r["verbs"].is_array()) {
      for (const Json& v : r["verbs"]) {
        if (v.is_string()) info.verbs.push_back(v.get<std::string>());
      }
    }
    list.push_back(std::move(info));
  }
  return std::optional<std::vector<ResourceInfo>>(std::move(list));
}

}  // namespace strata::kubernetes
