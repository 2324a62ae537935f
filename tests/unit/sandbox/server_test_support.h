#pragma once
// A running sandbox for a test, and AWS clients (the provider's own, over libcurl)
// pointed at it.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "providers/aws/signing/credentials.h"
#include "providers/aws/client/aws_client.h"
#include "providers/aws/http/curl_transport.h"
#include "sandbox/sandbox.h"

namespace strata::sandbox::testing {

//! Starts a sandbox on free ports; the test fails at once when it cannot.
inline std::unique_ptr<Sandbox> StartSandbox(SandboxSettings settings = {}) {
  auto sandbox = std::make_unique<Sandbox>(std::move(settings));
  std::string error;
  EXPECT_TRUE(sandbox->Start(error)) << error;
  return sandbox;
}

struct ClientOptions {
  std::string access_key;  //!< empty: the sandbox's
  std::string secret_key;  //!< empty: the sandbox's
  int max_retries = 0;
  std::shared_ptr<aws::Clock> clock = std::make_shared<aws::SystemClock>();

  static ClientOptions Keys(std::string access_key, std::string secret_key) {
    ClientOptions o;
    o.access_key = std::move(access_key);
    o.secret_key = std::move(secret_key);
    return o;
  }
  static ClientOptions Secret(std::string secret_key) { return Keys("", std::move(secret_key)); }
  static ClientOptions Retries(int max_retries) {
    ClientOptions o;
    o.max_retries = max_retries;
    return o;
  }
  static ClientOptions Clock(std::shared_ptr<aws::Clock> clock) {
    ClientOptions o;
    o.clock = std::move(clock);
    return o;
  }
};

//! An AwsClient whose every service endpoint is the sandbox.
inline aws::AwsClient ClientFor(const Sandbox& sandbox, const ClientOptions& options = {}) {
  aws::Credentials creds;
  creds.access_key_id = options.access_key.empty() ? sandbox.settings().access_key : options.access_key;
  creds.secret_access_key = options.secret_key.empty() ? sandbox.settings().secret_key : options.secret_key;
  aws::AwsClientConfig config;
  config.region = "us-east-1";
  config.endpoints[aws::kAllServices] = sandbox.url();
  config.retry.max_retries = options.max_retries;
  config.retry.base_delay = aws::Duration(1);
  aws::AwsClientDeps deps{std::make_shared<aws::CurlTransport>(),
                          std::make_shared<aws::StaticCredentialsProvider>(creds), options.clock,
                          std::make_shared<aws::SystemRandom>()};
  return aws::AwsClient(config, deps);
}

}  // namespace strata::sandbox::testing
