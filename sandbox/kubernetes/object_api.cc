#include "sandbox/kubernetes/object_api.h"

#include <cctype>

#include "sandbox/kubernetes/crds.h"
#include "sandbox/kubernetes/field_management.h"
#include "sandbox/kubernetes/kube_status.h"
#include "sandbox/kubernetes/names.h"
#include "sandbox/kubernetes/object_lifecycle.h"
#include "sandbox/kubernetes/selectors.h"
#include "sandbox/kubernetes/yaml_body.h"

namespace strata::sandbox::k8s {

std::string KubeRequest::Query(const std::string& name) const {
  auto it = query.find(name);
  return it == query.end() ? "" : it->second;
}

namespace {

bool DryRun(const KubeRequest& req) {
  std::string dry_run = req.Query("dryRun");
  if (dry_run.empty()) return false;
  if (dry_run != "All") throw BadRequest("Invalid dryRun value: \"" + dry_run + "\". Valid values are: All");
  return true;
}

Json ParseJsonBody(const std::string& body) {
  try {
    Json parsed = Json::parse(body);
    if (!parsed.is_object()) throw BadRequest("the body of the request must be a JSON object");
    return parsed;
  } catch (const Json::parse_error& e) {
    throw BadRequest(std::string("couldn't get version/kind; json parse error: ") + e.what());
  }
}

const ResourceType& ResolveType(const ObjectApiContext& ctx, const ResourcePath& path) {
  const ResourceType* type = ctx.types.Find(path.group, path.version, path.plural);
  if (!type) throw UnknownResource();
  if (!path.ns.empty() && !type->namespaced) throw UnknownResource();
  bool served = path.subresource.empty() || (path.subresource == "status" && type->status_subresource) ||
                (path.subresource == "scale" && type->scale_subresource);
  if (!served) throw UnknownResource();
  return *type;
}

// The verbs on one resource type, for one request.
class Verbs {
 public:
  Verbs(ObjectApiContext& ctx, const KubeRequest& req, const ResourceType& type)
      : ctx_(ctx), req_(req), type_(type), life_(ctx, type) {}

  KubeResponse Handle() {
    const ResourcePath& p = req_.path;
    if (req_.Query("watch") == "true" || req_.Query("watch") == "1") throw MethodNotSupported(type_, "watch");
    if (req_.method == "GET") return p.name.empty() ? List() : Get();
    if (req_.method == "POST" && p.name.empty()) return Create();
    if (req_.method == "PUT" && !p.name.empty()) return Replace();
    if (req_.method == "PATCH" && !p.name.empty()) return Patch();
    if (req_.method == "DELETE") return p.name.empty() ? DeleteCollection() : Delete();
    throw MethodNotSupported(type_, ToLower(req_.method));
  }

 private:
  static std::string ToLower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  void Require(const char* verb) const {
    if (!type_.Allows(verb)) throw MethodNotSupported(type_, verb);
  }

  Json Live() const {
    std::optional<Json> live = ctx_.store.Get(type_, req_.path.ns, req_.path.name);
    if (!live) throw NotFound(type_.group, type_.plural, req_.path.name);
    return life_.AsServed(std::move(*live));
  }

  KubeResponse Get() {
    Require("get");
    if (req_.path.subresource == "scale") return {200, ScaleOf(Live())};
    return {200, Live()};
  }

  // autoscaling/v1 Scale: the object's spec.replicas and status, as kube's scale
  // subresources show them.
  static Json ScaleOf(const Json& live) {
    const Json& meta = live["metadata"];
    Json scale_meta = Json::object();
    for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"})
      if (meta.contains(key)) scale_meta[key] = meta[key];
    Json spec = live.value("spec", Json::object());
    Json status = live.value("status", Json::object());
    Json scale_status = {{"replicas", status.value("replicas", 0)}};
    if (spec.contains("selector") && spec["selector"].contains("matchLabels")) {
      std::string selector;
      for (const auto& [k, v] : spec["selector"]["matchLabels"].items())
        selector += (selector.empty() ? "" : ",") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
      scale_status["selector"] = selector;
    }
    return {{"kind", "Scale"},
            {"apiVersion", "autoscaling/v1"},
            {"metadata", scale_meta},
            {"spec", {{"replicas", spec.value("replicas", 1)}}},
            {"status", scale_status}};
  }

  // A scale write changes spec.replicas and nothing else; its resourceVersion counts.
  static Json WithScaleOf(const Json& live, const Json& scale) {
    Json next = live;
    if (!scale.contains("spec") || !scale["spec"].contains("replicas") || !scale["spec"]["replicas"].is_number_integer())
      throw BadRequest("a Scale must set spec.replicas to an integer");
    next["spec"]["replicas"] = scale["spec"]["replicas"];
    if (scale.contains("metadata") && scale["metadata"].contains("resourceVersion"))
      next["metadata"]["resourceVersion"] = scale["metadata"]["resourceVersion"];
    return next;
  }

  // What a write answers: the object, or its Scale for a write to /scale.
  Json Answer(const Json& object) const { return req_.path.subresource == "scale" ? ScaleOf(object) : object; }

  // The new object of a write to `subresource` whose body (after any patch) is `written`.
  static Json Written(const std::string& subresource, const Json& live, const Json& written) {
    if (subresource == "status") return WithStatusOf(live, written);
    if (subresource == "scale") return WithScaleOf(live, written);
    return written;
  }

  KubeResponse List() {
    Require("list");
    std::string error;
    std::optional<LabelSelector> labels = LabelSelector::Parse(req_.Query("labelSelector"), error);
    if (!labels) throw BadRequest(error);
    std::optional<FieldSelector> fields = FieldSelector::Parse(req_.Query("fieldSelector"), error);
    if (!fields) throw BadRequest(error);
    Json items = Json::array();
    for (Json& object : ctx_.store.List(type_, req_.path.ns)) {
      const Json& meta = object["metadata"];
      if (!labels->Matches(meta.value("labels", Json::object())) || !fields->Matches(object)) continue;
      items.push_back(life_.AsServed(std::move(object)));
    }
    return {200,
            {{"kind", type_.kind + "List"},
             {"apiVersion", type_.ApiVersion()},
             {"metadata", {{"resourceVersion", ctx_.store.CurrentResourceVersion()}}},
             {"items", items}}};
  }

  KubeResponse Create() {
    Require("create");
    if (type_.namespaced && req_.path.ns.empty()) throw MethodNotSupported(type_, "create");
    Json object = ParseJsonBody(req_.body);
    Json created = life_.Create(std::move(object), req_.path.ns, UpdateManager(req_.Query("fieldManager"), req_.user_agent),
                                /*applied=*/false, DryRun(req_));
    return {201, created};
  }

  KubeResponse Replace() {
    Require("update");
    Json object = ParseJsonBody(req_.body);
    CheckName(object);
    Json live = Live();
    Json next = Written(req_.path.subresource, live, object);
    return {200, Answer(life_.Update(live, std::move(next), UpdateManager(req_.Query("fieldManager"), req_.user_agent),
                                     req_.path.subresource, DryRun(req_)))};
  }

  KubeResponse Patch() {
    Require("patch");
    const std::string& type = req_.content_type;
    bool force = req_.Query("force") == "true";
    if (type == "application/apply-patch+yaml") return Apply(force);
    if (force)
      throw Invalid(type_, req_.path.name, {{"force", "FieldValueForbidden", "Forbidden: may not be specified for non-apply patch"}});
    Json live = Live();
    Json patched = req_.path.subresource == "scale" ? ScaleOf(live) : live;
    if (type == "application/merge-patch+json" || type == "application/strategic-merge-patch+json") {
      // A strategic merge patch is read as a merge patch: its list directives are not
      // honoured (lists are replaced), which covers kubectl's label/annotate/scale/edit.
      patched.merge_patch(ParseJsonBody(req_.body));
    } else if (type == "application/json-patch+json") {
      try {
        patched = patched.patch(Json::parse(req_.body));
      } catch (const Json::exception& e) {
        throw KubeError(FailureStatus(422, "Invalid", std::string("the server rejected our request due to an error in our request: ") + e.what()));
      }
    } else {
      throw UnsupportedMediaType();
    }
    Json next = Written(req_.path.subresource, live, patched);
    return {200, Answer(life_.Update(live, std::move(next), UpdateManager(req_.Query("fieldManager"), req_.user_agent),
                                     req_.path.subresource, DryRun(req_)))};
  }

  KubeResponse Apply(bool force) {
    std::string manager = req_.Query("fieldManager");
    if (manager.empty())
      throw KubeError(FailureStatus(
          422, "Invalid", "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
          {{"group", "meta.k8s.io"}, {"kind", "PatchOptions"},
           {"causes", Json::array({{{"reason", "FieldValueRequired"}, {"message", "Required value: is required for apply patch"},
                                    {"field", "fieldManager"}}})}}));
    Json config;
    try {
      config = ParseYamlBody(req_.body);
    } catch (const std::exception& e) {
      throw BadRequest(std::string("error decoding YAML: ") + e.what());
    }
    if (!config.is_object()) throw BadRequest("the apply configuration must be an object");
    CheckName(config);
    bool dry_run = DryRun(req_);
    std::optional<Json> stored = ctx_.store.Get(type_, req_.path.ns, req_.path.name);
    if (req_.path.subresource == "scale") throw MethodNotSupported(type_, "apply to scale");
    if (!stored) {
      if (!req_.path.subresource.empty()) throw NotFound(type_.group, type_.plural, req_.path.name);
      Require("create");
      Json merged = ServerSideApply(type_, nullptr, config, manager, force, ctx_.now);
      return {201, life_.Create(std::move(merged), req_.path.ns, manager, /*applied=*/true, dry_run)};
    }
    Json live = life_.AsServed(std::move(*stored));
    Json merged = ServerSideApply(type_, &live, config, manager, force, ctx_.now);
    if (req_.path.subresource == "status") merged = WithStatusOf(live, merged);
    return {200, life_.Update(live, std::move(merged), "", req_.path.subresource, dry_run, /*applied=*/true)};
  }

  KubeResponse Delete() {
    Require("delete");
    Json options = req_.body.empty() ? Json::object() : ParseJsonBody(req_.body);
    bool dry_run = DryRun(req_) || (options.contains("dryRun") && options["dryRun"] == Json::array({"All"}));
    std::string policy = options.value("propagationPolicy", req_.Query("propagationPolicy"));
    if (!policy.empty() && policy != "Orphan" && policy != "Background" && policy != "Foreground")
      throw BadRequest("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"" + policy +
                       "\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
    Json live = Live();
    if (options.contains("preconditions")) CheckPreconditions(live, options["preconditions"]);
    return {200, life_.Delete(std::move(live), dry_run)};
  }

  KubeResponse DeleteCollection() {
    Require("deletecollection");
    KubeResponse list = List();
    bool dry_run = DryRun(req_);
    for (Json& item : list.body["items"]) life_.Delete(std::move(item), dry_run);
    list.body["metadata"]["resourceVersion"] = ctx_.store.CurrentResourceVersion();
    return list;
  }

  void CheckName(const Json& object) const {
    std::string name = object.contains("metadata") && object["metadata"].is_object()
                           ? object["metadata"].value("name", std::string())
                           : "";
    if (name != req_.path.name)
      throw BadRequest("the name of the object (" + name + ") does not match the name on the URL (" + req_.path.name + ")");
  }

  void CheckPreconditions(const Json& live, const Json& pre) const {
    const Json& meta = live["metadata"];
    if (pre.contains("uid") && pre["uid"].is_string() && pre["uid"] != meta.value("uid", ""))
      throw UpdateConflict(type_, req_.path.name,
                     "Precondition failed: UID in precondition: " + pre["uid"].get<std::string>() +
                         ", UID in object meta: " + meta.value("uid", ""));
    if (pre.contains("resourceVersion") && pre["resourceVersion"].is_string() &&
        pre["resourceVersion"] != meta.value("resourceVersion", ""))
      throw UpdateConflict(type_, req_.path.name,
                     "Precondition failed: ResourceVersion in precondition: " +
                         pre["resourceVersion"].get<std::string>() +
                         ", ResourceVersion in object meta: " + meta.value("resourceVersion", ""));
  }

  // A status write changes the status and nothing else (kube's status strategies); a
  // resourceVersion the request carries still counts.
  static Json WithStatusOf(const Json& live, const Json& written) {
    Json next = live;
    if (written.contains("status")) next["status"] = written["status"];
    else next.erase("status");
    if (written.contains("metadata") && written["metadata"].contains("resourceVersion"))
      next["metadata"]["resourceVersion"] = written["metadata"]["resourceVersion"];
    return next;
  }

  ObjectApiContext& ctx_;
  const KubeRequest& req_;
  const ResourceType& type_;
  ObjectLifecycle life_;
};

}  // namespace

KubeResponse HandleObjectRequest(ObjectApiContext& ctx, const KubeRequest& request) {
  const ResourceType& type = ResolveType(ctx, request.path);
  return Verbs(ctx, request, type).Handle();
}

void EnsureDefaultNamespaces(ObjectApiContext& ctx) {
  const ResourceType* ns_type = ctx.types.Find("", "v1", "namespaces");
  ObjectLifecycle life(ctx, *ns_type);
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    if (ctx.store.Get(*ns_type, "", name)) continue;
    life.Create({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}}, "", "kube-apiserver",
                /*applied=*/false, /*dry_run=*/false);
  }
}

}  // namespace strata::sandbox::k8s
