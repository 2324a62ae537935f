#include "providers/aws/services/route53/route53_api.h"

#include <cctype>

#include "providers/aws/common/wait.h"

namespace strata::aws {

Result<XmlResponse> CallRoute53(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const RestXmlRequest& call, const CallOptions& options) {
  ctx.Log(LogLevel::Debug, "route53:" + operation);
  return session.client->RestXml("route53", call, options);
}

Result<XmlResponse> CallRoute53(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const RestXmlRequest& call) {
  return CallRoute53(session, ctx, operation, call, CallOptionsFor(ctx));
}

std::string Route53Path(const std::vector<std::string>& segments) {
  std::string path = "/2013-04-01";
  for (const std::string& segment : segments) path += "/" + UriEncode(segment);
  return path;
}

std::string BareRoute53Id(const std::string& id) {
  for (const char* prefix : {"/hostedzone/", "/change/"}) {
    std::string p = prefix;
    if (id.rfind(p, 0) == 0) return id.substr(p.size());
  }
  return id;
}

std::string NormalizeDnsName(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name.compare(i, 4, "\\052") == 0) {
      out += '*';
      i += 3;
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(name[i])));
  }
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

Diagnostics WaitForRoute53Change(const AwsSession& session, const OperationContext& ctx, const std::string& change_id) {
  std::string id = BareRoute53Id(change_id);
  if (id.empty()) return {};
  return WaitFor(session, ctx, "Route 53 change " + id + " to be INSYNC", [&]() -> WaitPoll {
    RestXmlRequest call;
    call.path = Route53Path({"change", id});
    Result<XmlResponse> got = CallRoute53(session, ctx, "GetChange", call);
    if (!got.ok()) return {false, "", AwsErrorDiag("GetChange", got.error())};
    std::string status = XmlText(got->result, "ChangeInfo/Status");
    return {status == "INSYNC", status, {}};
  });
}

}  // namespace strata::aws
