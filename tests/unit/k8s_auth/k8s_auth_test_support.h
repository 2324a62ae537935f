#pragma once
// What the cluster-endpoint authentication tests share: EKS cluster documents as the EKS
// service stores them, and PEM parsing for certificates and keys.

#include <memory>
#include <string>

#include <openssl/pem.h>

#include "sandbox/cluster_tls.h"
#include "sandbox/world.h"

namespace strata::sandbox::k8s_auth::testing {

//! A cluster document as eks_clusters.cc stores it, ACTIVE since the epoch.
inline Json ClusterDoc(const std::string& name, const std::string& creator_arn, bool creator_is_admin = true,
                       const std::string& region = "us-east-1") {
  Json doc = {{"region", region},
              {"cluster", name},
              {"name", name},
              {"issuer", "https://oidc.eks." + region + ".amazonaws.com/id/ABC"},
              {"lifecycle", {{"readyMs", 0}}},
              {"view",
               {{"name", name},
                {"accessConfig",
                 {{"authenticationMode", "API_AND_CONFIG_MAP"},
                  {"bootstrapClusterCreatorAdminPermissions", creator_is_admin}}}}}};
  if (!creator_arn.empty()) doc["creatorArn"] = creator_arn;
  return doc;
}

inline void PutCluster(World& world, const Json& doc) {
  world.Put("eks.cluster", doc["region"].get<std::string>() + "/" + doc["name"].get<std::string>(), doc);
}

inline X509Ptr ParseCert(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509Ptr cert(PEM_read_bio_X509(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  return cert;
}

inline EvpPkeyPtr ParseKey(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EvpPkeyPtr key(PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  return key;
}

}  // namespace strata::sandbox::k8s_auth::testing
