#pragma once
// Calling Amazon Route 53 (REST-XML, API version 2013-04-01; global: one endpoint signed for
// us-east-1, endpoint override key "route53") from a resource type, and what its types share:
// zone ids, DNS name normalization, waiting for a change to be INSYNC.

#include <string>
#include <vector>

#include "providers/aws/common/aws_session.h"
#include "providers/aws/protocol/rest_xml_protocol.h"

namespace strata::aws {

inline constexpr const char* kRoute53Xmlns = "https://route53.amazonaws.com/doc/2013-04-01/";
inline constexpr const char* kNoSuchHostedZone = "NoSuchHostedZone";
inline constexpr const char* kInvalidChangeBatch = "InvalidChangeBatch";

//! Sends `call` to Route 53, logging "route53:<operation>" at debug level.
Result<XmlResponse> CallRoute53(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const RestXmlRequest& call, const CallOptions& options);
//! The same with CallOptionsFor(ctx).
Result<XmlResponse> CallRoute53(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const RestXmlRequest& call);

//! "/2013-04-01/<segment>/<segment>...", each segment encoded.
std::string Route53Path(const std::vector<std::string>& segments);

//! "Z123" from "/hostedzone/Z123" (and "C1" from "/change/C1"); other ids as they are.
std::string BareRoute53Id(const std::string& id);

//! A DNS name as Terraform keeps it: lower case, no trailing dot, "\052" written '*'.
std::string NormalizeDnsName(const std::string& name);

//! Waits until the change `change_id` ("/change/C..." or "C...") is INSYNC (GetChange), as
//! Terraform does after every change of records and zones.
Diagnostics WaitForRoute53Change(const AwsSession& session, const OperationContext& ctx, const std::string& change_id);

}  // namespace strata::aws
