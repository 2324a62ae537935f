#!/usr/bin/env python3
"""Compares what an AWS endpoint holds (read with the AWS CLI, the real client) with what a
Strata stage's state records (`strata state pull`), type by type.

usage: world_vs_state.py STATE_JSON
Reads the world through `aws` with the caller's environment (AWS_ENDPOINT_URL, keys,
region). Prints one line per problem and a summary line
    world-vs-state: N orphans, N dangling
where an orphan is an object in the world that state does not record (a duplicate made by
a create sent twice is one), and a dangling entry is a state object the world lacks.
Exits 0 when both counts are 0, else 1.
"""
import json
from concurrent.futures import ThreadPoolExecutor
import subprocess
import sys


def aws(*args):
    out = subprocess.run(["aws", "--output", "json", *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out) if out.strip() else {}


def world():
    """type -> set of ids, as Terraform's aws provider spells each type's id. The CLI calls
    run side by side: each starts a Python interpreter."""
    calls = {
        "vpcs": ("ec2", "describe-vpcs"),
        "subnets": ("ec2", "describe-subnets"),
        "igws": ("ec2", "describe-internet-gateways"),
        "eips": ("ec2", "describe-addresses"),
        "nats": ("ec2", "describe-nat-gateways"),
        "rtbs": ("ec2", "describe-route-tables"),
        "sgs": ("ec2", "describe-security-groups"),
        "roles": ("iam", "list-roles"),
        "policies": ("iam", "list-policies", "--scope", "Local"),
        "oidc": ("iam", "list-open-id-connect-providers"),
        "profiles": ("iam", "list-instance-profiles"),
        "clusters": ("eks", "list-clusters"),
    }
    with ThreadPoolExecutor(max_workers=8) as pool:
        r = dict(zip(calls, pool.map(lambda args: aws(*args), calls.values())))
        clusters = r["clusters"]["clusters"]
        groups = list(pool.map(lambda c: aws("eks", "list-nodegroups", "--cluster-name", c), clusters))
        addons = list(pool.map(lambda c: aws("eks", "list-addons", "--cluster-name", c), clusters))
    w = {}
    w["aws_vpc"] = {v["VpcId"] for v in r["vpcs"]["Vpcs"] if not v.get("IsDefault")}
    w["aws_subnet"] = {s["SubnetId"] for s in r["subnets"]["Subnets"] if not s.get("DefaultForAz")}
    w["aws_internet_gateway"] = {g["InternetGatewayId"] for g in r["igws"]["InternetGateways"]}
    w["aws_eip"] = {a["AllocationId"] for a in r["eips"]["Addresses"]}
    w["aws_nat_gateway"] = {n["NatGatewayId"] for n in r["nats"]["NatGateways"]
                            if n["State"] in ("pending", "available", "failed")}
    w["aws_route_table"] = {t["RouteTableId"] for t in r["rtbs"]["RouteTables"]
                            if not any(a.get("Main") for a in t.get("Associations", []))}
    # Not the VPCs' default groups, nor the cluster security groups EKS makes and deletes itself.
    w["aws_security_group"] = {g["GroupId"] for g in r["sgs"]["SecurityGroups"] if g["GroupName"] != "default"
                               and not any(t["Key"] == "aws:eks:cluster-name" for t in g.get("Tags", []))}
    w["aws_iam_role"] = {x["RoleName"] for x in r["roles"]["Roles"]
                         if not x.get("Path", "/").startswith("/aws-service-role/")}
    w["aws_iam_policy"] = {p["Arn"] for p in r["policies"]["Policies"]}
    w["aws_iam_openid_connect_provider"] = {p["Arn"] for p in r["oidc"]["OpenIDConnectProviderList"]}
    w["aws_iam_instance_profile"] = {p["InstanceProfileName"] for p in r["profiles"]["InstanceProfiles"]}
    w["aws_eks_cluster"] = set(clusters)
    w["aws_eks_node_group"] = {f"{c}:{n}" for c, g in zip(clusters, groups) for n in g["nodegroups"]}
    w["aws_eks_addon"] = {f"{c}:{a}" for c, g in zip(clusters, addons) for a in g["addons"]}
    return w


def recorded(state):
    s = {}
    for r in state.get("resources", []):
        if r.get("mode") != "managed" or r["type"] not in WORLD_TYPES:
            continue
        attrs = r.get("attributes") or {}
        if attrs.get("id"):
            s.setdefault(r["type"], {})[attrs["id"]] = r["address"]
    return s


WORLD_TYPES = {"aws_vpc", "aws_subnet", "aws_internet_gateway", "aws_eip", "aws_nat_gateway", "aws_route_table",
               "aws_security_group", "aws_iam_role", "aws_iam_policy", "aws_iam_openid_connect_provider",
               "aws_iam_instance_profile", "aws_eks_cluster", "aws_eks_node_group", "aws_eks_addon"}


def main():
    with open(sys.argv[1]) as f:
        state = json.load(f)
    w, s = world(), recorded(state)
    orphans = dangling = 0
    for t in sorted(WORLD_TYPES):
        have, want = w.get(t, set()), s.get(t, {})
        for i in sorted(have - set(want)):
            orphans += 1
            print(f"orphan: {t} {i} is in the world but not in state")
        for i in sorted(set(want) - have):
            dangling += 1
            print(f"dangling: {want[i]} ({i}) is in state but not in the world")
    print(f"world-vs-state: {orphans} orphans, {dangling} dangling")
    return 0 if orphans == 0 and dangling == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
