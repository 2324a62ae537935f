#!/usr/bin/env python3
"""Checks the self-managed node group `batch` of modules/eksctl-cluster's example config
(example/eksctl/cluster.yaml: a base of one on-demand node, 25 % on-demand above it,
lowest-price over three pools, a 0.05 USD spot price cap, a label and a taint) in a
`strata show -json` document: a saved plan's (`plan`: planned values) or the stage's state
(`state`: the applied objects, with the user data that joins the node).

Usage: eksctl_self_managed.py plan|state FILE. Prints one line per check; exits 1 when one
fails."""

import base64
import json
import sys

GROUP = "batch"
CLUSTER = "demo"
failures = []


def check(what, got, want):
    if got == want:
        print(f"ok   {what}")
    else:
        failures.append(what)
        print(f"FAIL {what}: got {got!r}, want {want!r}")


def resources(module):
    yield from module.get("resources", [])
    for child in module.get("child_modules", []):
        yield from resources(child)


def objects(doc, key):
    root = doc[key]["root_module"] if key == "planned_values" else doc["values"]["root_module"]
    return {r["address"]: r["values"] for r in resources(root)}


def at(objs, address):
    if address not in objs:
        failures.append(address)
        print(f"FAIL no {address}")
        return {}
    return objs[address]


def main():
    mode, path = sys.argv[1], sys.argv[2]
    doc = json.load(open(path))
    objs = objects(doc, "planned_values" if mode == "plan" else "values")
    m = "module.cluster."
    check("no EKS managed node group for the self-managed group",
          f'{m}aws_eks_node_group.nodes["{GROUP}"]' in objs, False)
    check("the other groups stay managed",
          sorted(a for a in objs if a.startswith(f"{m}aws_eks_node_group.")),
          [f'{m}aws_eks_node_group.nodes["spot"]', f'{m}aws_eks_node_group.nodes["system"]'])
    asg = at(objs, f'{m}aws_autoscaling_group.asg["{GROUP}"]')
    check("ASG name", asg.get("name"), f"{CLUSTER}-{GROUP}")
    check("capacity rebalancing", asg.get("capacity_rebalance"), True)
    check("ASG sizes", [asg.get("min_size"), asg.get("desired_capacity"), asg.get("max_size")], [1, 2, 8])
    policy = (asg.get("mixed_instances_policy") or [{}])[0]
    dist = (policy.get("instances_distribution") or [{}])[0]
    check("on-demand base capacity", dist.get("on_demand_base_capacity"), 1)
    check("on-demand percentage above base", dist.get("on_demand_percentage_above_base_capacity"), 25)
    check("spot allocation strategy", dist.get("spot_allocation_strategy"), "lowest-price")
    check("spot instance pools", dist.get("spot_instance_pools"), 3)
    check("spot max price", dist.get("spot_max_price"), "0.05")
    template = (policy.get("launch_template") or [{}])[0]
    check("one override per instance type", [o.get("instance_type") for o in template.get("override") or []],
          ["m5.large", "m5a.large", "m5d.large"])
    tags = {t["key"]: (t["value"], t["propagate_at_launch"]) for t in asg.get("tag") or []}
    check("node-template label tag", tags.get("k8s.io/cluster-autoscaler/node-template/label/workload"),
          ("batch", False))
    check("node-template taint tag", tags.get("k8s.io/cluster-autoscaler/node-template/taint/batch"),
          ("true:NoSchedule", False))
    check("discovery tags", [tags.get("k8s.io/cluster-autoscaler/enabled"),
                             tags.get(f"k8s.io/cluster-autoscaler/{CLUSTER}")], [("true", False), ("owned", False)])
    check("the cluster owns the instances", tags.get(f"kubernetes.io/cluster/{CLUSTER}"), ("owned", True))
    check("no aws_autoscaling_group_tag on our own group",
          [a for a in objs if a.startswith(f'{m}aws_autoscaling_group_tag.asg_tag["{GROUP}/')], [])
    entry = at(objs, f'{m}aws_eks_access_entry.node_access["{GROUP}"]')
    check("the node role may join as a node", entry.get("type"), "EC2_LINUX")
    lt = at(objs, f'{m}aws_launch_template.template["{GROUP}"]')
    check("the EKS-optimized AMI", str(lt.get("image_id", "")).startswith("ami-"), True)
    if mode == "state":
        profile = at(objs, f'{m}aws_iam_instance_profile.node_profile["{GROUP}"]')
        check("the instance profile holds the group's role", profile.get("role"), f"{CLUSTER}-{GROUP}-nodes")
        check("the template runs the instances with it",
              [p.get("arn") for p in lt.get("iam_instance_profile") or []], [profile.get("arn")])
        check("the template's security group is the cluster's", len(lt.get("vpc_security_group_ids") or []), 1)
        user_data = base64.b64decode(lt.get("user_data", "")).decode()
        node_config = json.loads(user_data.split("\n\n")[2])
        check("nodeadm joins this cluster", node_config["spec"]["cluster"]["name"], CLUSTER)
        check("with the Services' CIDR", bool(node_config["spec"]["cluster"].get("cidr")), True)
        flags = node_config["spec"]["kubelet"]["flags"]
        check("the kubelet registers the taint", "--register-with-taints=batch=true:NoSchedule" in flags, True)
        check("and the labels", any(f.startswith("--node-labels=") and "workload=batch" in f
                                    and f"alpha.eksctl.io/nodegroup-name={GROUP}" in f for f in flags), True)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
