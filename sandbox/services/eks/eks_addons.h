#pragma once
// EKS add-ons: CreateAddon, DescribeAddon, ListAddons, UpdateAddon, DeleteAddon and
// DescribeAddonVersions, from a small catalogue of the add-ons AWS publishes (vpc-cni,
// coredns, kube-proxy, aws-ebs-csi-driver, ...). An add-on is CREATING until
// settings.addon_delay has passed, then ACTIVE; UPDATING for addon_delay after UpdateAddon;
// DELETING for addon_delay after DeleteAddon or its cluster's deletion, then gone.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

Response CreateAddon(ServiceContext& ctx, const std::string& cluster);
Response DescribeAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name);
Response ListAddons(ServiceContext& ctx, const std::string& cluster);
Response UpdateAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name);
Response DeleteAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name);
//! GET /addons/supported-versions[?addonName=&kubernetesVersion=&maxResults=&nextToken=]
Response DescribeAddonVersions(ServiceContext& ctx);

//! The add-on's stored document, or nullopt when there is none or it has finished deleting
//! (then it is erased with its updates).
std::optional<Json> LoadAddon(ServiceContext& ctx, const std::string& cluster,
                              const std::string& name);
//! The add-on as the API answers it.
Json RenderAddon(const ServiceContext& ctx, const Json& doc);
void SaveAddon(ServiceContext& ctx, const Json& doc);
//! Starts deleting every add-on of a cluster that is being deleted: each is gone after
//! `delay` at most.
void DeleteAddonsOf(ServiceContext& ctx, const std::string& cluster, Millis delay);

}  // namespace strata::sandbox::eks
