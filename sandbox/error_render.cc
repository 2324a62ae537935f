#include "sandbox/error_render.h"

namespace strata::sandbox {

std::string QueryNamespace(const std::string& service) {
  if (service == "sts") return "https://sts.amazonaws.com/doc/2011-06-15/";
  if (service == "route53") return "https://route53.amazonaws.com/doc/2013-04-01/";
  if (service == "autoscaling") return "http://autoscaling.amazonaws.com/doc/2011-01-01/";
  return "https://iam.amazonaws.com/doc/2010-05-08/";
}

std::string AwsJsonVersion(const std::string& service) { return service == "sqs" ? "1.0" : "1.1"; }

Response RenderError(Protocol protocol, const std::string& service, const ErrorInfo& error,
                     const std::string& request_id, const std::string& method) {
  switch (protocol) {
    case Protocol::Ec2Query:
      return RenderEc2Error(error, request_id);
    case Protocol::Query:
      return RenderQueryError(error, QueryNamespace(service), request_id);
    case Protocol::RestJson:
      return RenderRestJsonError(error, request_id);
    case Protocol::AwsJson:
      return RenderAwsJsonError(error, AwsJsonVersion(service), request_id);
    case Protocol::RestXml:
      if (service == "s3") return RenderS3Error(error, method, request_id);
      return RenderQueryError(error, QueryNamespace(service), request_id);
  }
  return RenderQueryError(error, QueryNamespace(service), request_id);
}

}  // namespace strata::sandbox
