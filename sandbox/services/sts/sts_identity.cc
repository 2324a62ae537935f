// Who is calling: GetCallerIdentity (the sandbox user of the account; what EKS tokens
// present as presigned GET requests), GetSessionToken, GetAccessKeyInfo.

#include <cstdint>

#include "engine/base/random.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/sts/sts_call.h"
#include "sandbox/services/sts/sts_credentials.h"

namespace strata::sandbox::sts {
namespace {

//! The sandbox user's unique id: "AIDA" + 17 characters derived from the account, so it
//! is the same in every call and every process.
std::string SandboxUserId(const std::string& account) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  uint64_t hash = 1469598103934665603ULL;  // FNV-1a
  for (char c : "strata-sandbox-user:" + account) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  base::SeededRandom draw(hash);  // the same seed, the same characters
  std::string id = "AIDA";
  for (int i = 0; i < 17; ++i) id += kAlphabet[draw.Uniform(32)];
  return id;
}

void GetCallerIdentity(StsCall& call) {
  AddText(call.result, "Arn", SandboxUserArn(call.account()));
  AddText(call.result, "UserId", SandboxUserId(call.account()));
  AddText(call.result, "Account", call.account());
}

void GetSessionToken(StsCall& call) {
  long long duration = call.params.Integer("DurationSeconds", 900, 129600).value_or(43200);
  TemporaryCredentials creds =
      IssueCredentials(call, std::chrono::seconds(duration), SandboxUserArn(call.account()));
  WriteCredentials(call.result, creds);
}

void GetAccessKeyInfo(StsCall& call) {
  call.params.Length("AccessKeyId", 16, 128, true);
  AddText(call.result, "Account", call.account());
}

}  // namespace

std::string SandboxUserArn(const std::string& account) {
  return "arn:aws:iam::" + account + ":user/sandbox";
}

void AddIdentityActions(StsActionTable& table) {
  table["GetCallerIdentity"] = GetCallerIdentity;
  table["GetSessionToken"] = GetSessionToken;
  table["GetAccessKeyInfo"] = GetAccessKeyInfo;
}

}  // namespace strata::sandbox::sts
