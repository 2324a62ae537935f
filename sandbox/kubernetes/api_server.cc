// The Kubernetes API of every EKS cluster in the sandbox, at the cluster's endpoint
// (https://127.0.0.1:<port>/clusters/<name>/...): routing, authentication, the world
// transaction, and rendering of answers and failures.

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "engine/base/time_format.h"
#include "sandbox/cluster_endpoint.h"
#include "sandbox/kubernetes/api_types.h"
#include "sandbox/kubernetes/cluster_nodes.h"
#include "sandbox/kubernetes/controllers.h"
#include "sandbox/kubernetes/discovery.h"
#include "sandbox/kubernetes/kube_status.h"
#include "sandbox/kubernetes/object_api.h"
#include "sandbox/kubernetes/openapi.h"
#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

using k8s::Json;

constexpr const char* kClusterKind = "eks.cluster";  // the EKS service's clusters: "<region>/<name>"

// Thrown for paths kube's mux does not know at all: a plain-text 404, not a Status.
struct PageNotFound {};

// The region of the cluster `cluster`, or nullopt when there is no such cluster.
std::optional<std::string> ClusterRegion(const World& world, const std::string& cluster) {
  std::string suffix = "/" + cluster;
  for (const auto& [key, doc] : world.List(kClusterKind))
    if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
      return key.substr(0, key.size() - suffix.size());
  return std::nullopt;
}

std::string MediaType(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  return type;
}

void SetJson(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// Discovery and the other documents that are not objects; null when `path` is none of them.
Json Document(const k8s::ApiTypes& types, const std::string& path) {
  if (path == "/version" || path == "/version/") return k8s::VersionInfo();
  if (path == "/api" || path == "/api/") return k8s::ApiVersions();
  if (path == "/api/v1" || path == "/api/v1/") return k8s::ApiResourceList(types, "", "v1");
  if (path == "/apis" || path == "/apis/") return k8s::ApiGroupList(types);
  if (path.rfind("/apis/", 0) == 0) {
    std::string rest = path.substr(6);
    if (!rest.empty() && rest.back() == '/') rest.pop_back();
    size_t slash = rest.find('/');
    if (slash == std::string::npos) return k8s::ApiGroupDocument(types, rest);
    if (rest.find('/', slash + 1) == std::string::npos)
      return k8s::ApiResourceList(types, rest.substr(0, slash), rest.substr(slash + 1));
  }
  return k8s::OpenApiDocument(types, path);
}

k8s::KubeResponse Route(World& world, const SandboxSettings& settings, const std::string& region,
                        const std::string& cluster, const std::string& path, const httplib::Request& req) {
  k8s::ObjectStore store(world, cluster);
  k8s::ApiTypes types = k8s::ApiTypes::Load(store);
  auto now = std::chrono::system_clock::now();
  k8s::ObjectApiContext ctx{store, types, base::FormatRfc3339(now),
                            [&world] { return world.NewUuid(); },
                            [&world](size_t n) { return world.RandomString(n, "bcdfghjklmnpqrstvwxz2456789"); }};
  k8s::EnsureDefaultNamespaces(ctx);
  if (path == "/healthz" || path == "/livez" || path == "/readyz") return {200, "ok"};
  if (path == "/openapi/v2" && req.get_header_value("Accept").find("protobuf") != std::string::npos)
    return {200, k8s::OpenApiV2Protobuf(types), "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"};
  std::optional<k8s::ResourcePath> resource = k8s::ParseResourcePath(path);
  if (!resource) {
    if (req.method != "GET") throw PageNotFound{};
    Json doc = Document(types, path);
    if (doc.is_null()) throw PageNotFound{};
    return {200, doc};
  }
  if (!types.FindGroupVersion(resource->group, resource->version)) throw PageNotFound{};
  k8s::KubeRequest request;
  request.method = req.method;
  request.path = *resource;
  for (const auto& [name, value] : req.params) request.query.emplace(name, value);
  request.content_type = MediaType(req.get_header_value("Content-Type"));
  request.body = req.body;
  request.user_agent = req.get_header_value("User-Agent");
  // The controllers catch up before the request is answered, and again after a write, so
  // that a spec change is timed from the write itself.
  k8s::ControllerInputs controllers{
      region, k8s::ClusterNodeGroups(world, settings, region, cluster, now),
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count(),
      settings.workload_delay.count()};
  k8s::RunControllers(ctx, controllers);
  k8s::KubeResponse response = k8s::HandleObjectRequest(ctx, request);
  if (request.method != "GET") k8s::RunControllers(ctx, controllers);
  return response;
}

// Watches are served by polling: the watch stays open without events for a second (never
// under the world lock: client-go calls a shorter watch broken), then the watched list is
// read once — the controllers catching up first — and every object in it changed after the
// watch's resourceVersion is sent as a MODIFIED event before the watch ends, as one that
// timed out. So informers (kubectl wait, rollout status) see a rollout finish; deletions
// are not reported.
void AnswerWatch(const ClusterEndpointAuth& auth, const std::string& cluster, const std::string& path,
                 const httplib::Request& req, httplib::Response& res) {
  int seconds = 1;
  std::string timeout = req.get_param_value("timeoutSeconds");
  if (!timeout.empty() && timeout.find_first_not_of("0123456789") == std::string::npos && timeout.size() < 6)
    seconds = std::min(seconds, std::stoi(timeout));
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  res.status = 200;
  res.set_content("", "application/json");
  std::string since = req.get_param_value("resourceVersion");
  if (since.empty() || since.find_first_not_of("0123456789") != std::string::npos || since.size() > 18) return;
  httplib::Request list = req;
  for (const char* watch_only : {"watch", "resourceVersion", "resourceVersionMatch", "timeoutSeconds",
                                 "allowWatchBookmarks", "sendInitialEvents"})
    list.params.erase(watch_only);
  std::lock_guard lock(auth.world_mutex);
  std::optional<std::string> region = ClusterRegion(auth.world, cluster);
  if (!region) return;
  std::string events;
  try {
    auth.world.Begin();
    k8s::KubeResponse answer = Route(auth.world, auth.settings, *region, cluster, path, list);
    auth.world.Commit();
    const Json& items = answer.body.is_object() && answer.body.contains("items") ? answer.body["items"] : Json();
    for (const Json& item : items.is_array() ? items : Json::array({answer.body})) {
      std::string rv = item.contains("metadata") ? item["metadata"].value("resourceVersion", "") : "";
      if (rv.empty() || std::stoll(rv) <= std::stoll(since)) continue;
      events += Json{{"type", "MODIFIED"}, {"object", item}}.dump() + "\n";
    }
  } catch (...) {  // the watch ends without events
    try {
      auth.world.Rollback();
    } catch (...) {
    }
  }
  res.set_content(events, "application/json");
}

// The world's only EKS cluster, or "" when it has none or several.
std::string SoleCluster(const World& world) {
  auto clusters = world.List(kClusterKind);
  if (clusters.size() != 1) return "";
  const std::string& key = clusters[0].first;
  return key.substr(key.rfind('/') + 1);
}

void Answer(const ClusterEndpointAuth& auth, const httplib::Request& req, httplib::Response& res) {
  World& world = auth.world;
  std::mutex& world_mutex = auth.world_mutex;
  // /clusters/<name>[/<path>]; any other path is the sole cluster's (kubectl --raw drops the
  // server URL's path).
  const std::string prefix = "/clusters/";
  std::string cluster, path;
  if (req.path.rfind(prefix, 0) == 0) {
    size_t slash = req.path.find('/', prefix.size());
    cluster = req.path.substr(prefix.size(), slash == std::string::npos ? std::string::npos : slash - prefix.size());
    path = slash == std::string::npos ? "/" : req.path.substr(slash);
  } else {
    {
      std::lock_guard lock(world_mutex);
      cluster = SoleCluster(world);
    }
    path = req.path;
    if (cluster.empty()) {
      if (!AdmitClusterRequest(req, "", auth, res)) return;
      res.status = 404;
      res.set_content("404 page not found (the sandbox serves several clusters: use /clusters/<name>" + req.path + ")\n",
                      "text/plain; charset=utf-8");
      return;
    }
  }
  if (!AdmitClusterRequest(req, cluster, auth, res)) return;
  if (req.method == "GET" && (req.get_param_value("watch") == "true" || req.get_param_value("watch") == "1")) {
    AnswerWatch(auth, cluster, path, req, res);
    return;
  }
  std::lock_guard lock(world_mutex);
  std::optional<std::string> region = ClusterRegion(world, cluster);
  if (!region) {
    SetJson(res, 404, k8s::UnknownResource().status());
    return;
  }
  auto rollback = [&] {
    try {
      world.Rollback();
    } catch (...) {  // nothing left to undo
    }
  };
  try {
    world.Begin();
    k8s::KubeResponse response = Route(world, auth.settings, *region, cluster, path, req);
    world.Commit();
    if (response.body.is_string()) {
      res.status = response.status;
      res.set_content(response.body.get<std::string>(), response.content_type);
    } else {
      SetJson(res, response.status, response.body);
    }
  } catch (const k8s::KubeError& e) {
    rollback();
    SetJson(res, e.code(), e.status());
  } catch (const PageNotFound&) {
    rollback();
    res.status = 404;
    res.set_content("404 page not found\n", "text/plain; charset=utf-8");
  } catch (const std::exception& e) {
    rollback();
    SetJson(res, 500, k8s::FailureStatus(500, "InternalError", std::string("Internal error occurred: ") + e.what()));
  }
}

}  // namespace

void ServeClusterEndpoint(httplib::Server& server, const ClusterEndpointAuth& auth) {
  auto answer = [&auth](const httplib::Request& req, httplib::Response& res) { Answer(auth, req, res); };
  const char* any = ".*";
  server.Get(any, answer).Post(any, answer).Put(any, answer).Patch(any, answer).Delete(any, answer).Options(any, answer);
}

}  // namespace strata::sandbox
