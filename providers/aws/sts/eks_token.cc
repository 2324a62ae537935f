#include "providers/aws/sts/eks_token.h"

#include <nlohmann/json.hpp>

#include "engine/base/base64.h"
#include "providers/aws/signing/sigv4_signer.h"
#include "providers/aws/client/endpoint_resolver.h"

namespace strata::aws {

Result<EksToken> MakeEksToken(const Credentials& creds, const EksTokenRequest& request) {
  std::string base = request.sts_endpoint;
  if (base.empty()) base = "https://sts." + request.region + "." + PartitionDnsSuffix(request.region);
  while (!base.empty() && base.back() == '/') base.pop_back();
  HttpRequest http;
  http.method = "GET";
  http.url = base + "/?Action=GetCallerIdentity&Version=2011-06-15";
  http.headers.emplace_back("x-k8s-aws-id", request.cluster_id);

  SigningOptions options;
  options.region = request.region;
  options.service = "sts";
  options.time = request.now;
  auto signed_ok = PresignRequest(http, creds, options, std::chrono::seconds(60));
  if (!signed_ok.ok()) return signed_ok.error();

  EksToken token;
  token.presigned_url = http.url;
  token.token = "k8s-aws-v1." + base::Base64Encode(http.url, base::Base64Alphabet::kUrlSafe, /*pad=*/false);
  token.expiration = request.now + std::chrono::minutes(14);
  return token;
}

std::string EksToken::ExecCredentialJson() const {
  nlohmann::ordered_json j;
  j["kind"] = "ExecCredential";
  j["apiVersion"] = "client.authentication.k8s.io/v1beta1";
  j["spec"] = nlohmann::json::object();
  j["status"]["expirationTimestamp"] = FormatRfc3339(expiration);
  j["status"]["token"] = token;
  return j.dump();
}

}  // namespace strata::aws
