#include "sandbox/error_render.h"

namespace strata::sandbox {

std::string QueryNamespace(const std::string& service) {
  if (service == "sts") return "https://sts.amazonaws.com/doc/2011-06-15/";
  return "https://iam.amazonaws.com/doc/2010-05-08/";
}

Response RenderError(Protocol protocol, const std::string& service, const ErrorInfo& error,
                     const std::string& request_id) {
  switch (protocol) {
    case Protocol::Ec2Query:
      return RenderEc2Error(error, request_id);
    case Protocol::Query:
      return RenderQueryError(error, QueryNamespace(service), request_id);
    case Protocol::RestJson:
      return RenderRestJsonError(error, request_id);
  }
  return RenderQueryError(error, QueryNamespace(service), request_id);
}

}  // namespace strata::sandbox
