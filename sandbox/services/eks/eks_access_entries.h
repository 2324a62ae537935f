#pragma once
// EKS access entries and access policies: CreateAccessEntry, DescribeAccessEntry,
// ListAccessEntries, UpdateAccessEntry, DeleteAccessEntry, AssociateAccessPolicy,
// ListAssociatedAccessPolicies, DisassociateAccessPolicy and ListAccessPolicies, with EKS's
// rules: only on clusters whose authentication mode is API or API_AND_CONFIG_MAP; one entry
// per IAM principal; Kubernetes groups may not start with "system:"; EC2 and Fargate
// entries take no groups or user name; policies from AWS's catalogue (cluster-access-policy
// ARNs), scoped to the cluster or to named namespaces. Entries are stored per cluster (world
// kind kAccessEntryKind, key "<region>/<cluster>/<principal ARN>") and go with the cluster.
// The cluster's Kubernetes API reads them (sandbox/kubernetes/auth/cluster_access.h).
//
// Paths carry ARNs, whose '/' the URL-decoded path no longer tells from a separator: the
// service hands everything after "/access-entries/" to RouteAccessEntry, which splits it at
// "/access-policies".

#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

inline constexpr const char* kAccessEntryKind = "eks.access_entry";
inline constexpr const char* kAccessPolicyArnPrefix = "arn:aws:eks::aws:cluster-access-policy/";

Response CreateAccessEntry(ServiceContext& ctx, const std::string& cluster);
Response ListAccessEntries(ServiceContext& ctx, const std::string& cluster);
//! /clusters/{cluster}/access-entries/{rest}: an entry ({principalArn}), its policies
//! ({principalArn}/access-policies) or one of them (.../access-policies/{policyArn}).
Response RouteAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& rest);
Response ListAccessPolicies(ServiceContext& ctx);

//! Erases the access entries of a cluster that is gone.
void EraseAccessEntriesOf(ServiceContext& ctx, const std::string& cluster);
//! What EKS makes for a new cluster whose creator gets admin (accessConfig's bootstrap
//! flag, authentication mode API or API_AND_CONFIG_MAP): an entry for the creator (its
//! canonical ARN) with AmazonEKSClusterAdminPolicy on the cluster.
void AddCreatorAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& creator_arn);

//! The entry of `cluster` whose accessEntryArn is `arn` (for tagging), or nullopt.
std::optional<Json> FindAccessEntryByArn(ServiceContext& ctx, const std::string& cluster, const std::string& arn);
void SaveAccessEntry(ServiceContext& ctx, const Json& doc);

}  // namespace strata::sandbox::eks
