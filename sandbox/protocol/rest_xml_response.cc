#include "sandbox/protocol/rest_xml_response.h"

#include "sandbox/protocol/api_error.h"
#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox {

pugi::xml_document RestXmlDocument(const char* root, const char* xml_namespace) {
  pugi::xml_document doc = NewXmlDocument();
  doc.append_child(root).append_attribute("xmlns") = xml_namespace;
  return doc;
}

Response RestXmlResponse(const pugi::xml_document& doc, int status, const std::string& content_type) {
  Response response;
  response.status = status;
  response.content_type = content_type;
  response.body = RenderCompact(doc);
  return response;
}

pugi::xml_node ParseXmlBody(const std::string& body, pugi::xml_document& doc, const std::string& error_code,
                            const std::string& message) {
  if (!doc.load_buffer(body.data(), body.size()) || !doc.document_element()) throw ApiError(400, error_code, message);
  return doc.document_element();
}

}  // namespace strata::sandbox
