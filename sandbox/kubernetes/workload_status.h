#pragma once
// The statuses the sandbox's "controllers" give objects once their rollout is due: what
// kube-controller-manager (and the AWS load balancer controller, the kubelet) would have
// written for a workload whose pods all came up. Pure functions of the object (and, for
// DaemonSets, the nodes); the rules they satisfy are kstatus's, as Strata's
// kubernetes_manifest reads them (providers/kubernetes/manifest/readiness.h).

#include <string>
#include <vector>

#include "sandbox/kubernetes/resource_type.h"

namespace strata::sandbox::k8s {

//! spec.replicas, 1 when absent (Deployments, StatefulSets).
int64_t DesiredReplicas(const Json& object);

//! A Deployment rolled out: observedGeneration, replicas, updated/ready/available all
//! spec.replicas, Available True and Progressing True (NewReplicaSetAvailable), as of `time`.
Json RolledOutDeploymentStatus(const Json& deployment, const std::string& time);
//! A StatefulSet rolled out: every replica ready and current, currentRevision = updateRevision.
Json RolledOutStatefulSetStatus(const Json& stateful_set);
//! A DaemonSet with one ready pod on each of `scheduled` nodes.
Json RolledOutDaemonSetStatus(const Json& daemon_set, int64_t scheduled);
//! A Job whose spec.completions (default 1) pods succeeded: Complete True.
Json CompletedJobStatus(const Json& job, const std::string& start_time, const std::string& completion_time);

//! Whether a pod with `pod_spec` (a template's spec) may run on `node`: its nodeSelector
//! matches the node's labels and its tolerations tolerate every NoSchedule and NoExecute taint.
bool Schedulable(const Json& pod_spec, const Json& node);
//! Whether `toleration` tolerates `taint` (kube's ToleratesTaint: effect equal or empty,
//! key equal or empty with Exists, Exists or Equal by value).
bool Tolerates(const Json& toleration, const Json& taint);

//! The host name of the load balancer the sandbox gives a Service of type LoadBalancer
//! (a classic/NLB name, "a<32 hex>-<10 digits>.<region>.elb.amazonaws.com") or an Ingress
//! (an ALB name, "k8s-<ns>-<name>-<10 hex>.elb.<region>.amazonaws.com"), derived from the
//! object's uid so that it stays the same for the object's life.
std::string ServiceLoadBalancerHost(const std::string& uid, const std::string& region);
std::string IngressLoadBalancerHost(const std::string& ns, const std::string& name, const std::string& uid,
                                    const std::string& region);

}  // namespace strata::sandbox::k8s
