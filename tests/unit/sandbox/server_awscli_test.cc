// The sandbox against a client that is not ours: the AWS CLI (botocore) must get through
// signature verification in every protocol, and see AWS's error codes when refused.
// Skipped where `aws` is not on PATH.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/unit/sandbox/server_test_support.h"

namespace strata::sandbox {
namespace {

struct CliResult {
  int exit_code = -1;
  std::string output;  //!< stdout and stderr
};

CliResult RunAws(const Sandbox& sandbox, const std::string& args, const std::string& secret = "") {
  std::string command = "AWS_ACCESS_KEY_ID=" + sandbox.settings().access_key +
                        " AWS_SECRET_ACCESS_KEY=" + (secret.empty() ? sandbox.settings().secret_key : secret) +
                        " AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null"
                        " AWS_MAX_ATTEMPTS=1 AWS_PAGER= aws --endpoint-url " + sandbox.url() + " " + args + " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) result.output.append(buf.data(), n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

class SandboxAwsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("aws --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "the AWS CLI is not installed";
    sandbox_ = testing::StartSandbox();
  }
  // The call passed the front end: it succeeded, or the service itself refused it.
  void ExpectVerified(const std::string& args) {
    CliResult r = RunAws(*sandbox_, args);
    for (const char* refusal : {"SignatureDoesNotMatch", "InvalidSignatureException", "AuthFailure",
                                "InvalidClientTokenId", "UnrecognizedClientException", "MissingAuthentication"})
      EXPECT_EQ(r.output.find(refusal), std::string::npos) << args << ": " << r.output;
  }
  std::unique_ptr<Sandbox> sandbox_;
};

TEST_F(SandboxAwsCliTest, SignaturesOfEveryProtocolVerify) {
  ExpectVerified("sts get-caller-identity");
  ExpectVerified("iam list-roles --path-prefix '/a b/'");
  ExpectVerified("ec2 describe-vpcs --filters Name=tag:Name,Values='x y*'");
  ExpectVerified("eks list-clusters --max-items 5");
  ExpectVerified("eks describe-cluster --name 'my-cluster'");
  EXPECT_EQ(sandbox_->stats().bad_signatures, 0u);
}

TEST_F(SandboxAwsCliTest, WrongSecretIsSignatureDoesNotMatch) {
  CliResult r = RunAws(*sandbox_, "sts get-caller-identity", "wrong-secret");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("(SignatureDoesNotMatch)"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace strata::sandbox
