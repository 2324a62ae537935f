#include "sandbox/protocol/error_shapes.h"

#include "sandbox/protocol/json_response.h"
#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox {
namespace {

Response XmlErrorResponse(const ErrorInfo& error, const pugi::xml_document& doc,
                          const std::string& request_id) {
  Response response;
  response.status = error.status;
  response.content_type = "text/xml";
  response.body = RenderCompact(doc);
  response.headers["x-amzn-RequestId"] = request_id;
  return response;
}

}  // namespace

Response RenderEc2Error(const ErrorInfo& error, const std::string& request_id) {
  pugi::xml_document doc = NewXmlDocument();
  pugi::xml_node root = doc.append_child("Response");
  pugi::xml_node err = root.append_child("Errors").append_child("Error");
  AddText(err, "Code", error.code);
  AddText(err, "Message", error.message);
  AddText(root, "RequestID", request_id);
  return XmlErrorResponse(error, doc, request_id);
}

Response RenderQueryError(const ErrorInfo& error, const std::string& xml_namespace,
                          const std::string& request_id) {
  pugi::xml_document doc = NewXmlDocument();
  pugi::xml_node root = doc.append_child("ErrorResponse");
  root.append_attribute("xmlns") = xml_namespace.c_str();
  pugi::xml_node err = root.append_child("Error");
  AddText(err, "Type", error.status >= 500 ? "Receiver" : "Sender");
  AddText(err, "Code", error.code);
  AddText(err, "Message", error.message);
  AddText(root, "RequestId", request_id);
  return XmlErrorResponse(error, doc, request_id);
}

Response RenderS3Error(const ErrorInfo& error, const std::string& method, const std::string& request_id) {
  pugi::xml_document doc = NewXmlDocument();
  pugi::xml_node root = doc.append_child("Error");
  AddText(root, "Code", error.code);
  AddText(root, "Message", error.message);
  AddText(root, "RequestId", request_id);
  Response response = XmlErrorResponse(error, doc, request_id);
  response.content_type = "application/xml";
  response.headers["x-amz-request-id"] = request_id;
  if (method == "HEAD") response.body.clear();
  return response;
}

Response RenderRestJsonError(const ErrorInfo& error, const std::string& request_id) {
  Response response = JsonResponse(Json{{"message", error.message}}, request_id, error.status);
  response.headers["x-amzn-ErrorType"] = error.code;
  response.headers["x-amzn-RequestId"] = request_id;
  return response;
}

Response RenderAwsJsonError(const ErrorInfo& error, const std::string& json_version, const std::string& request_id) {
  Response response = AwsJsonResponse(Json{{"__type", error.code}, {"message", error.message}}, json_version,
                                      request_id, error.status);
  response.headers["x-amzn-RequestId"] = request_id;
  return response;
}

}  // namespace strata::sandbox
