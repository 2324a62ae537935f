#include "sandbox/kubernetes/controllers.h"
#include "sandbox/kubernetes/api_catalog.h"

#include <chrono>
#include <cmath>
#include <set>

#include "engine/base/time_format.h"
#include "sandbox/kubernetes/object_lifecycle.h"
#include "sandbox/kubernetes/workload_status.h"

namespace strata::sandbox::k8s {
namespace {

constexpr const char* kControllerManager = "kube-controller-manager";

std::string TimeAt(int64_t ms) {
  return base::FormatRfc3339(std::chrono::system_clock::time_point(std::chrono::milliseconds(ms)));
}

// "10Gi", "500M", "1.5Ti" in bytes; NaN when unreadable.
double Quantity(const std::string& text) {
  static const std::pair<const char*, double> kSuffixes[] = {
      {"Ki", 1024.0}, {"Mi", std::pow(1024.0, 2)}, {"Gi", std::pow(1024.0, 3)}, {"Ti", std::pow(1024.0, 4)},
      {"Pi", std::pow(1024.0, 5)}, {"Ei", std::pow(1024.0, 6)}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9},
      {"T", 1e12}, {"P", 1e15}, {"E", 1e18}, {"m", 1e-3}};
  size_t end = 0;
  double number = 0;
  try {
    number = std::stod(text, &end);
  } catch (const std::exception&) {
    return std::nan("");
  }
  std::string suffix = text.substr(end);
  if (suffix.empty()) return number;
  for (const auto& [s, factor] : kSuffixes)
    if (suffix == s) return number * factor;
  return std::nan("");
}

class Controllers {
 public:
  Controllers(ObjectApiContext& ctx, const ControllerInputs& in) : ctx_(ctx), in_(in) {}

  void Run() {
    SyncNodes();
    Roll("apps", "deployments", [this](const Json& d, int64_t due) {
      return Json(RolledOutDeploymentStatus(d, TimeAt(due)));
    });
    Roll("apps", "statefulsets", [](const Json& s, int64_t) { return RolledOutStatefulSetStatus(s); });
    std::vector<Json> nodes = ctx_.store.ListResource("", "nodes", "");
    Roll("apps", "daemonsets", [&nodes](const Json& ds, int64_t) {
      const Json& pod_spec = MemberAt(MemberAt(MemberAt(ds, "spec"), "template"), "spec");
      int64_t scheduled = 0;
      for (const Json& node : nodes) scheduled += Schedulable(pod_spec, node) ? 1 : 0;
      return RolledOutDaemonSetStatus(ds, scheduled);
    });
    Roll("batch", "jobs", [this](const Json& job, int64_t due) {
      const Json& conditions = MemberAt(MemberAt(job, "status"), "conditions");
      if (conditions.is_array())  // a finished Job stays as it finished
        for (const Json& c : conditions)
          if (TextAt(c, "type") == "Complete" && TextAt(c, "status") == "True") return MemberAt(job, "status");
      return CompletedJobStatus(job, TimeAt(due - in_.delay_ms), TimeAt(due));
    });
    BindClaims();
    AssignLoadBalancers();
    ForgetGoneObjects();
  }

 private:
  const ResourceType* Type(const char* group, const char* version, const char* plural) const {
    return ctx_.types.Find(group, version, plural);
  }

  // Writes `status` into `live` as kube-controller-manager's status update; no write when
  // it is the status `live` has.
  void WriteStatus(const ResourceType& type, const Json& live, const Json& status,
                   const char* manager = kControllerManager) {
    if (MemberAt(live, "status") == status) return;
    Json next = live;
    next["status"] = status;
    ObjectLifecycle(ctx_, type).Update(live, std::move(next), manager, "status", /*dry_run=*/false);
  }

  // Nodes: those of the node groups, made when missing, relabelled and retainted as their
  // groups change, removed with them. Nodes without the nodegroup label are not ours.
  void SyncNodes() {
    const ResourceType* type = Type("", "v1", "nodes");
    std::map<std::string, Json> wanted;
    for (Json& node : NodesOf(in_.node_groups, in_.region, ctx_.now))
      wanted.emplace(node["metadata"]["name"].get<std::string>(), std::move(node));
    ObjectLifecycle life(ctx_, *type);
    for (Json& live : ctx_.store.List(*type, "")) {
      const Json& labels = MemberAt(live["metadata"], "labels");
      if (!labels.is_object() || !labels.contains(kNodegroupLabel)) continue;
      auto it = wanted.find(TextAt(live["metadata"], "name"));
      if (it == wanted.end()) {
        life.Delete(std::move(live), /*dry_run=*/false);
        continue;
      }
      const Json& want = it->second;
      if (MemberAt(live["metadata"], "labels") != want["metadata"]["labels"] ||
          MemberAt(live["spec"], "taints") != MemberAt(want["spec"], "taints")) {
        Json next = live;
        next["metadata"]["labels"] = want["metadata"]["labels"];
        if (want["spec"].contains("taints")) next["spec"]["taints"] = want["spec"]["taints"];
        else next["spec"].erase("taints");
        life.Update(live, std::move(next), "kubelet", "", /*dry_run=*/false);
      }
      wanted.erase(it);
    }
    for (auto& [name, node] : wanted) {
      Json status = node["status"];
      node.erase("status");
      Json created = life.Create(std::move(node), "", "kubelet", /*applied=*/false, /*dry_run=*/false);
      WriteStatus(*type, created, status, "kubelet");
    }
  }

  // When the rollout of `object`'s current generation is due (ms), recording when that
  // generation was first seen.
  int64_t DueAt(const Json& object) {
    const Json& meta = object["metadata"];
    std::string uid = TextAt(meta, "uid");
    int64_t generation = MemberAt(meta, "generation").is_number_integer() ? meta["generation"].get<int64_t>() : 0;
    seen_.insert(uid);
    std::optional<Json> record = ctx_.store.GetRecord(uid);
    if (!record || record->value("generation", int64_t{-1}) != generation) {
      record = Json{{"generation", generation}, {"sinceMs", in_.now_ms}};
      ctx_.store.PutRecord(uid, *record);
    }
    return record->value("sinceMs", in_.now_ms) + in_.delay_ms;
  }

  // Workloads of group/plural: their rolled-out status once due.
  template <class Status>
  void Roll(const char* group, const char* plural, Status status_of) {
    const ResourceType* type = Type(group, "v1", plural);
    if (!type) return;
    for (const Json& live : ctx_.store.List(*type, "")) {
      if (live["metadata"].contains("deletionTimestamp")) continue;
      int64_t due = DueAt(live);
      try {
        Json status = status_of(live, due);
        // A DaemonSet with nowhere to run is ready at once; everything else after the delay.
        bool nothing_to_wait_for = std::string(plural) == "daemonsets" && status.value("desiredNumberScheduled", 1) == 0;
        if (in_.now_ms < due && !nothing_to_wait_for) continue;
        WriteStatus(*type, live, status);
      } catch (const std::exception&) {  // a spec the rules cannot read: left as it is
      }
    }
  }

  // The class of a claim: its storageClassName, else the cluster's default class.
  std::optional<Json> ClassOf(const Json& claim) {
    const ResourceType* type = Type("storage.k8s.io", "v1", "storageclasses");
    const Json& name = MemberAt(MemberAt(claim, "spec"), "storageClassName");
    if (name.is_string()) return type ? ctx_.store.Get(*type, "", name.get<std::string>()) : std::nullopt;
    if (!type) return std::nullopt;
    for (Json& sc : ctx_.store.List(*type, ""))
      if (TextAt(MemberAt(sc["metadata"], "annotations"), "storageclass.kubernetes.io/is-default-class") == "true")
        return sc;
    return std::nullopt;
  }

  static bool Satisfies(const Json& volume, const Json& claim, const std::string& class_name) {
    const Json& pv = MemberAt(volume, "spec");
    const Json& spec = MemberAt(claim, "spec");
    if (TextAt(MemberAt(volume, "status"), "phase") == "Bound") return false;
    const Json& ref = MemberAt(pv, "claimRef");
    if (ref.is_object() && (TextAt(ref, "name") != TextAt(claim["metadata"], "name") ||
                            TextAt(ref, "namespace") != TextAt(claim["metadata"], "namespace")))
      return false;
    if (TextAt(pv, "storageClassName") != class_name) return false;
    double want = Quantity(TextAt(MemberAt(MemberAt(spec, "resources"), "requests"), "storage"));
    double have = Quantity(TextAt(MemberAt(pv, "capacity"), "storage"));
    if (!(have >= want)) return false;
    const Json& modes = MemberAt(spec, "accessModes");
    const Json& offered = MemberAt(pv, "accessModes");
    if (modes.is_array())
      for (const Json& mode : modes)
        if (!offered.is_array() || std::find(offered.begin(), offered.end(), mode) == offered.end()) return false;
    return true;
  }

  // PersistentVolumeClaims: bound to a matching volume (both sides), or Pending.
  void BindClaims() {
    const ResourceType* claims = Type("", "v1", "persistentvolumeclaims");
    const ResourceType* volumes = Type("", "v1", "persistentvolumes");
    for (const Json& pv : ctx_.store.List(*volumes, ""))  // a new volume is Available
      if (TextAt(MemberAt(pv, "status"), "phase").empty()) WriteStatus(*volumes, pv, {{"phase", "Available"}});
    for (const Json& claim : ctx_.store.List(*claims, "")) {
      if (TextAt(MemberAt(claim, "status"), "phase") == "Bound" || claim["metadata"].contains("deletionTimestamp")) continue;
      std::optional<Json> sc = ClassOf(claim);
      std::string class_name = sc ? TextAt((*sc)["metadata"], "name")
                                  : TextAt(MemberAt(claim, "spec"), "storageClassName");
      std::string wanted_volume = TextAt(MemberAt(claim, "spec"), "volumeName");
      bool on_first_consumer = sc && TextAt(*sc, "volumeBindingMode") == "WaitForFirstConsumer";
      std::optional<Json> volume;
      if (!on_first_consumer)
        for (Json& pv : ctx_.store.List(*volumes, ""))
          if ((wanted_volume.empty() || TextAt(pv["metadata"], "name") == wanted_volume) &&
              Satisfies(pv, claim, class_name)) {
            volume = std::move(pv);
            break;
          }
      if (!volume) {
        WriteStatus(*claims, claim, {{"phase", "Pending"}});
        continue;
      }
      Bind(*claims, claim, *volumes, *volume);
    }
  }

  void Bind(const ResourceType& claims, const Json& claim, const ResourceType& volumes, const Json& volume) {
    const Json& meta = claim["metadata"];
    Json pv = volume;
    pv["spec"]["claimRef"] = {{"kind", "PersistentVolumeClaim"}, {"namespace", meta["namespace"]},
                              {"name", meta["name"]}, {"uid", meta["uid"]}, {"apiVersion", "v1"},
                              {"resourceVersion", meta["resourceVersion"]}};
    ObjectLifecycle pv_life(ctx_, volumes);
    Json bound_pv = pv_life.Update(volume, std::move(pv), kControllerManager, "", false);
    WriteStatus(volumes, bound_pv, {{"phase", "Bound"}});

    Json next = claim;
    next["spec"]["volumeName"] = volume["metadata"]["name"];
    next["metadata"]["annotations"]["pv.kubernetes.io/bind-completed"] = "yes";
    Json bound = ObjectLifecycle(ctx_, claims).Update(claim, std::move(next), kControllerManager, "", false);
    WriteStatus(claims, bound,
                {{"phase", "Bound"},
                 {"accessModes", MemberAt(volume["spec"], "accessModes")},
                 {"capacity", MemberAt(volume["spec"], "capacity")}});
  }

  // Services of type LoadBalancer and Ingresses: an ELB host name.
  void AssignLoadBalancers() {
    const ResourceType* services = Type("", "v1", "services");
    for (const Json& svc : ctx_.store.ListWhere(*services, "$.spec.type", "LoadBalancer")) {
      std::string host = ServiceLoadBalancerHost(TextAt(svc["metadata"], "uid"), in_.region);
      Json status = MemberAt(svc, "status").is_object() ? svc["status"] : Json::object();
      status["loadBalancer"] = {{"ingress", {{{"hostname", host}}}}};
      WriteStatus(*services, svc, status, "service-controller");
    }
    const ResourceType* ingresses = Type("networking.k8s.io", "v1", "ingresses");
    if (!ingresses) return;
    for (const Json& ing : ctx_.store.List(*ingresses, "")) {
      const Json& meta = ing["metadata"];
      std::string host = IngressLoadBalancerHost(TextAt(meta, "namespace"), TextAt(meta, "name"), TextAt(meta, "uid"),
                                                 in_.region);
      WriteStatus(*ingresses, ing, {{"loadBalancer", {{"ingress", {{{"hostname", host}}}}}}},
                  "aws-load-balancer-controller");
    }
  }

  // Records of objects no longer there.
  void ForgetGoneObjects() {
    for (const std::string& key : ctx_.store.RecordKeys())
      if (!seen_.count(key)) ctx_.store.EraseRecord(key);
  }

  ObjectApiContext& ctx_;
  const ControllerInputs& in_;
  std::set<std::string> seen_;
};

}  // namespace

void RunControllers(ObjectApiContext& ctx, const ControllerInputs& in) { Controllers(ctx, in).Run(); }

}  // namespace strata::sandbox::k8s
