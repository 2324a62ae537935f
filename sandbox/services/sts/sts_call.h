#pragma once
// What an STS action handler works with, and the table the STS service dispatches by:
// sts_identity.cc (GetCallerIdentity, GetSessionToken, GetAccessKeyInfo) and
// sts_assume_role.cc (AssumeRole, AssumeRoleWithWebIdentity) add their actions. STS speaks
// the same query protocol as IAM (API version 2011-06-15), so the parameters and answers
// are IAM's (iam_params.h, iam_xml.h).

#include <map>
#include <string>

#include <pugixml.hpp>

#include "sandbox/service.h"
#include "sandbox/services/iam/iam_params.h"

namespace strata::sandbox::sts {

inline constexpr const char* kStsVersion = "2011-06-15";

//! One STS call being answered.
struct StsCall {
  ServiceContext& ctx;
  const iam::Params& params;
  //! The <ActionResult> element the handler writes its answer into.
  pugi::xml_node result;

  World& world() const { return ctx.world; }
  const std::string& account() const { return ctx.settings.account_id; }
};

using StsHandler = void (*)(StsCall&);
using StsActionTable = std::map<std::string, StsHandler>;

void AddIdentityActions(StsActionTable& table);
void AddAssumeRoleActions(StsActionTable& table);

//! Who the sandbox's one key pair is: the IAM user arn:aws:iam::<account>:user/sandbox.
std::string SandboxUserArn(const std::string& account);

}  // namespace strata::sandbox::sts
