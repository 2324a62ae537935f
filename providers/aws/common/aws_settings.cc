#include "providers/aws/common/aws_settings.h"

#include <cctype>

#include "providers/aws/credentials/ca_bundle.h"
#include "providers/aws/credentials/credential_chain.h"
#include "providers/aws/http/curl_transport.h"
#include "providers/resource_type.h"

namespace strata::aws {

using namespace attrs;

ResourceSchema AwsSettingsSchema() {
  ResourceSchema s;
  s.type = "aws";
  s.attributes = {{"region", Optional("string")},
                  {"profile", Optional("string")},
                  {"endpoints", Optional("map(string)")},
                  {"max_retries", Optional("number")},
                  {"default_tags", Optional("map(string)")},
                  {"access_key", Optional("string")},
                  {"secret_key", Optional("string")},
                  {"s3_use_path_style", Optional("bool")}};
  s.attributes["access_key"].sensitive = true;
  s.attributes["secret_key"].sensitive = true;
  return s;
}

namespace {

Diagnostics CheckKnown(const Value& config) {
  Diagnostics diags;
  if (!config.IsMapping()) return diags;
  for (const auto& [name, v] : config.AsMap()) {
    if (v.IsWhollyKnown()) continue;
    diags.Error("Provider setting not known",
                "The aws provider's \"" + name +
                    "\" depends on a value only known after apply; provider settings must be "
                    "known when planning.");
  }
  return diags;
}

std::string RegionFrom(const Value& config, const Environment& env) {
  std::string region = GetString(config, "region");
  if (region.empty()) region = env.GetNonEmptyEnv("AWS_REGION").value_or("");
  if (region.empty()) region = env.GetNonEmptyEnv("AWS_DEFAULT_REGION").value_or("");
  return region;
}

// The SDKs' service ids for AWS_ENDPOINT_URL_<ID>: upper case, '-' as '_'.
// The services whose endpoint an SDK-standard AWS_ENDPOINT_URL_<SERVICE> variable sets: the
// provider's endpoint key and the variable's suffix, the service's SDK id in upper case with
// spaces as underscores ("Route 53" -> ROUTE_53), as the AWS SDKs and CLI name them.
struct EndpointEnv {
  const char* service;
  const char* suffix;
};
constexpr EndpointEnv kEnvEndpoints[] = {
    {"ec2", "EC2"},         {"iam", "IAM"},
    {"sts", "STS"},         {"eks", "EKS"},
    {"elbv2", "ELASTIC_LOAD_BALANCING_V2"},
    {"autoscaling", "AUTO_SCALING"},
    {"events", "EVENTBRIDGE"},
    {"sqs", "SQS"},         {"ssm", "SSM"},
    {"kms", "KMS"},         {"route53", "ROUTE_53"},
    {"cognito-idp", "COGNITO_IDENTITY_PROVIDER"},
    {"fsx", "FSX"},         {"acm", "ACM"},
    {"efs", "EFS"},         {"s3", "S3"},
    {"logs", "CLOUDWATCH_LOGS"},
    {"cloudwatch", "CLOUDWATCH"},
    {"secretsmanager", "SECRETS_MANAGER"},
};

void AddEnvironmentEndpoints(const Environment& env, std::map<std::string, std::string>& endpoints) {
  std::string ignore = env.GetNonEmptyEnv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS").value_or("");
  if (ignore == "true" || ignore == "TRUE" || ignore == "1") return;
  for (const EndpointEnv& e : kEnvEndpoints) {
    if (endpoints.count(e.service)) continue;
    if (auto url = env.GetNonEmptyEnv(std::string("AWS_ENDPOINT_URL_") + e.suffix)) endpoints[e.service] = *url;
  }
  if (auto url = env.GetNonEmptyEnv("AWS_ENDPOINT_URL")) endpoints.emplace(kAllServices, *url);
}

}  // namespace

Diagnostics ParseAwsSettings(const Value& config, const Environment& env, AwsSettings& out) {
  Diagnostics diags = CheckKnown(config);
  if (diags.HasErrors()) return diags;
  out.region = RegionFrom(config, env);
  out.profile = GetString(config, "profile");
  out.endpoints = GetStringMap(config, "endpoints");
  AddEnvironmentEndpoints(env, out.endpoints);
  out.default_tags = GetStringMap(config, "default_tags");
  out.access_key = GetString(config, "access_key");
  out.secret_key = GetString(config, "secret_key");
  out.s3_use_path_style = GetBool(config, "s3_use_path_style", false);
  if (auto retries = GetNumber(config, "max_retries")) out.max_retries = static_cast<int>(*retries);
  CaBundle bundle = FindCaBundle(env, out.profile);
  out.ca_bundle = bundle.path;
  if (!bundle.path.empty() && !env.ReadFile(bundle.path)) {
    diags.Error("Cannot read the CA bundle",
                bundle.origin + " names " + bundle.path +
                    ", which does not exist or cannot be read: point it at a PEM file of the CAs to trust, or "
                    "unset it to trust the system's CAs.");
  }
  if (out.region.empty()) {
    diags.Error("No AWS region",
                "Set \"region\" in the aws provider block, or AWS_REGION / AWS_DEFAULT_REGION.");
  }
  if (out.access_key.empty() != out.secret_key.empty()) {
    diags.Error("Incomplete AWS keys",
                "The aws provider needs both \"access_key\" and \"secret_key\", or neither.");
  }
  if (out.max_retries && *out.max_retries < 0) {
    diags.Error("Invalid max_retries", "\"max_retries\" must be zero or more.");
  }
  return diags;
}

std::shared_ptr<AwsClient> MakeAwsClient(const AwsSettings& settings,
                                         std::shared_ptr<const Environment> env,
                                         std::function<void(const std::string&)> log) {
  CurlTransportOptions transport;
  transport.ca_bundle = settings.ca_bundle;
  AwsClientDeps deps{std::make_shared<CurlTransport>(transport), nullptr, std::make_shared<SystemClock>(),
                     std::make_shared<SystemRandom>()};
  CredentialChainSettings chain;
  chain.profile = settings.profile;
  if (!settings.access_key.empty()) {
    chain.explicit_credentials = Credentials{settings.access_key, settings.secret_key, "", std::nullopt,
                                             "provider settings"};
  }
  CredentialContext ctx;
  ctx.env = std::move(env);
  ctx.transport = deps.transport;
  ctx.clock = deps.clock;
  ctx.random = deps.random;
  ctx.region = settings.region;
  ctx.endpoints = settings.endpoints;
  deps.credentials = MakeDefaultCredentialChain(chain, ctx);
  AwsClientConfig config;
  config.region = settings.region;
  config.endpoints = settings.endpoints;
  config.s3_use_path_style = settings.s3_use_path_style;
  if (settings.max_retries) config.retry.max_retries = *settings.max_retries;
  config.log = std::move(log);
  return std::make_shared<AwsClient>(std::move(config), std::move(deps));
}

}  // namespace strata::aws
