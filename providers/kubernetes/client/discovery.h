#pragma once
// Discovery: which resource serves a kind (apiVersion + kind → the plural resource name,
// namespaced or not, verbs), learned from the server's /api/v1 and /apis/<group>/<version>
// lists and kept for the run. A group-version is fetched once, when first asked for; a kind
// it does not list makes it fetched again (a CRD created earlier in the same apply adds it),
// and Forget() drops a group-version a CRD change just touched.
//
// A kind the server does not serve is a `TypeNotServed` answer — never taken for "the object
// is gone" (a 404 for the type and a 404 for the object are different things).

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "providers/kubernetes/client/api_client.h"

namespace strata::kubernetes {

struct ResourceInfo {
  std::string group;    //!< "" for the core group
  std::string version;  //!< "v1"
  std::string kind;     //!< "Deployment"
  std::string resource;  //!< "deployments"
  bool namespaced = false;
  std::vector<std::string> verbs;
};

//! "apps/v1" → {"apps", "v1"}; "v1" → {"", "v1"}.
std::pair<std::string, std::string> SplitApiVersion(const std::string& api_version);

class Discovery {
 public:
  explicit Discovery(const ApiClient& client) : client_(client) {}

  //! What serves `kind` in `api_version`: the resource, or nullopt when the server does not
  //! serve that kind (the group-version exists without it, or not at all); an error when the
  //! server could not be asked.
  ApiResult<std::optional<ResourceInfo>> Find(const OperationContext& ctx, const std::string& api_version,
                                              const std::string& kind);

  //! Drops what is known of `api_version` (a CRD serving it was created, changed or deleted).
  void Forget(const std::string& api_version);

  //! How many group-version lists were fetched (for tests of the cache).
  int fetches() const;

 private:
  //! Fetches the list of `api_version`: nullopt when the server does not serve it.
  ApiResult<std::optional<std::vector<ResourceInfo>>> Fetch(const OperationContext& ctx,
                                                             const std::string& api_version);
  static std::optional<ResourceInfo> FindIn(const std::vector<ResourceInfo>& list, const std::string& kind);

  const ApiClient& client_;
  mutable std::mutex mu_;
  //! Per group-version: its resources, or nullopt when the server does not serve it.
  std::map<std::string, std::optional<std::vector<ResourceInfo>>> lists_;
  int fetches_ = 0;
};

}  // namespace strata::kubernetes
