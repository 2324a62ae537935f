#pragma once
// The aws provider block: its schema, its parsed form, and the AwsClient it configures.
// Endpoints come only from `endpoints` (service id -> URL); nothing else redirects calls.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "providers/aws/credentials/environment.h"
#include "providers/aws/client/aws_client.h"
#include "providers/provider.h"

namespace strata::aws {

struct AwsSettings {
  std::string region;
  std::string profile;
  std::map<std::string, std::string> endpoints;
  std::optional<int> max_retries;
  std::map<std::string, std::string> default_tags;
  std::string access_key;
  std::string secret_key;
  bool s3_use_path_style = false;  //!< S3 buckets addressed in the path, never in the host name
  std::string ca_bundle;  //!< AWS_CA_BUNDLE or the profile's ca_bundle; empty: the system's CAs
};

//! region, profile, endpoints, max_retries, default_tags, access_key, secret_key,
//! s3_use_path_style.
ResourceSchema AwsSettingsSchema();

//! Reads the provider block (null: all defaults). The region falls back to AWS_REGION,
//! then AWS_DEFAULT_REGION; none at all is an error, as is one key without the other.
//! Endpoints: the block's `endpoints` first, then the AWS SDKs' environment variables
//! AWS_ENDPOINT_URL_<SERVICE> (EC2, IAM, STS, EKS, ...) and AWS_ENDPOINT_URL for every
//! other service — unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true. The CA bundle:
//! AWS_CA_BUNDLE, else the profile's ca_bundle (auth/ca_bundle.h); one that cannot be read
//! is an error.
Diagnostics ParseAwsSettings(const Value& config, const Environment& env, AwsSettings& out);

//! A client over libcurl, signing with the explicit keys when given, else with the
//! default credential chain (environment, profile, web identity, IMDS).
std::shared_ptr<AwsClient> MakeAwsClient(const AwsSettings& settings,
                                         std::shared_ptr<const Environment> env,
                                         std::function<void(const std::string&)> log);

}  // namespace strata::aws
