#include "sandbox/error_render.h"

#include <sstream>

#include <pugixml.hpp>

namespace strata::sandbox {
namespace {

std::string Serialize(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw);  // with the <?xml version="1.0"?> declaration
  return out.str();
}

pugi::xml_document NewDocument() {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  return doc;
}

void AddErrorText(pugi::xml_node parent, const char* name, const std::string& text) {
  parent.append_child(name).text().set(text.c_str());
}

Response XmlResponse(const ErrorInfo& error, const pugi::xml_document& doc,
                     const std::string& request_id) {
  Response response;
  response.status = error.status;
  response.content_type = "text/xml";
  response.body = Serialize(doc);
  response.headers["x-amzn-RequestId"] = request_id;
  return response;
}

}  // namespace

Response RenderEc2Error(const ErrorInfo& error, const std::string& request_id) {
  pugi::xml_document doc = NewDocument();
  pugi::xml_node root = doc.append_child("Response");
  pugi::xml_node err = root.append_child("Errors").append_child("Error");
  AddErrorText(err, "Code", error.code);
  AddErrorText(err, "Message", error.message);
  AddErrorText(root, "RequestID", request_id);
  return XmlResponse(error, doc, request_id);
}

Response RenderQueryError(const ErrorInfo& error, const std::string& xml_namespace,
                          const std::string& request_id) {
  pugi::xml_document doc = NewDocument();
  pugi::xml_node root = doc.append_child("ErrorResponse");
  root.append_attribute("xmlns") = xml_namespace.c_str();
  pugi::xml_node err = root.append_child("Error");
  AddErrorText(err, "Type", error.status >= 500 ? "Receiver" : "Sender");
  AddErrorText(err, "Code", error.code);
  AddErrorText(err, "Message", error.message);
  AddErrorText(root, "RequestId", request_id);
  return XmlResponse(error, doc, request_id);
}

Response RenderRestJsonError(const ErrorInfo& error, const std::string& request_id) {
  Response response;
  response.status = error.status;
  response.content_type = "application/json";
  response.body = Json{{"message", error.message}}.dump();
  response.headers["x-amzn-ErrorType"] = error.code;
  response.headers["x-amzn-RequestId"] = request_id;
  return response;
}

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
