#pragma once
// The sandbox cluster's controllers, run without threads: on each request to a cluster's
// API, inside the request's world transaction, what kube-controller-manager, the kubelets
// and the load-balancer controllers would have done by now is done, so the answer, the
// resourceVersions and managedFields agree (status written by "kube-controller-manager",
// operation Update, subresource status):
//  - Nodes follow the cluster's node groups (cluster_nodes.h): made, relabelled, removed;
//  - Deployments, StatefulSets and DaemonSets roll out, and Jobs complete, `delay_ms` after
//    their last spec change (generation); a DaemonSet schedules onto the nodes its
//    nodeSelector and tolerations admit (none: ready at once);
//  - PersistentVolumes are Available until a PersistentVolumeClaim binds to one that
//    matches it (class, capacity, access modes); claims without one stay Pending (always,
//    when their class binds on first consumer);
//  - Services of type LoadBalancer and Ingresses get an ELB host name at once.
// When each object's spec changed is kept beside the objects (ObjectStore records, by uid).

#include <cstdint>
#include <string>
#include <vector>

#include "sandbox/kubernetes/cluster_nodes.h"
#include "sandbox/kubernetes/object_api.h"

namespace strata::sandbox::k8s {

struct ControllerInputs {
  std::string region;                     //!< the cluster's: node names, zones, ELB names
  std::vector<NodeGroupView> node_groups;  //!< those with nodes now
  int64_t now_ms = 0;                     //!< the request's clock (ctx.now in milliseconds)
  int64_t delay_ms = 1000;                //!< from a spec change to the rollout's end
};

//! Brings the cluster's objects up to date as of `in.now_ms`. Objects the rules cannot read
//! (a malformed spec) are left alone; nothing is written when nothing is due.
void RunControllers(ObjectApiContext& ctx, const ControllerInputs& in);

}  // namespace strata::sandbox::k8s
