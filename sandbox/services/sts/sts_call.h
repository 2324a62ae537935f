#pragma once
// What an STS action handler works with, and the table the STS service dispatches by:
// sts_identity.cc (GetCallerIdentity, GetSessionToken, GetAccessKeyInfo) and
// sts_assume_role.cc (AssumeRole, AssumeRoleWithWebIdentity) add their actions. STS speaks
// the same query protocol as IAM (API version 2011-06-15), served the same way
// (sandbox/query_service.h, on the protocol layer's parameters and XML writer).

#include <map>
#include <string>

#include <pugixml.hpp>

#include "sandbox/caller_identity.h"
#include "sandbox/protocol/aws_query_params.h"
#include "sandbox/query_service.h"
#include "sandbox/service.h"

namespace strata::sandbox::sts {

//! One STS call being answered: its parameters, and the <ActionResult> to write into.
using StsCall = QueryCall;
using StsActionTable = QueryCallTable;

void AddIdentityActions(StsActionTable& table);
void AddAssumeRoleActions(StsActionTable& table);

}  // namespace strata::sandbox::sts
