// Who is calling: GetCallerIdentity (the sandbox user of the account; what EKS tokens
// present as presigned GET requests), GetSessionToken, GetAccessKeyInfo.

#include "sandbox/caller_identity.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/sts/sts_call.h"
#include "sandbox/services/sts/sts_credentials.h"

namespace strata::sandbox::sts {
namespace {

// The identity the front end found for the request's access key (the sandbox user when
// signatures are not checked).
void GetCallerIdentity(StsCall& call) {
  CallerIdentity caller = call.ctx.request.caller;
  if (caller.arn.empty()) caller = SandboxUserIdentity(call.account());
  AddText(call.result, "Arn", caller.arn);
  AddText(call.result, "UserId", caller.user_id);
  AddText(call.result, "Account", caller.account);
}

void GetSessionToken(StsCall& call) {
  long long duration = call.params.Integer("DurationSeconds", 900, 129600).value_or(43200);
  CallerIdentity user = SandboxUserIdentity(call.account());
  TemporaryCredentials creds = IssueCredentials(call, std::chrono::seconds(duration), user.arn, user.user_id);
  WriteCredentials(call.result, creds);
}

void GetAccessKeyInfo(StsCall& call) {
  call.params.Length("AccessKeyId", 16, 128, true);
  AddText(call.result, "Account", call.account());
}

}  // namespace

void AddIdentityActions(StsActionTable& table) {
  table["GetCallerIdentity"] = GetCallerIdentity;
  table["GetSessionToken"] = GetSessionToken;
  table["GetAccessKeyInfo"] = GetAccessKeyInfo;
}

}  // namespace strata::sandbox::sts
