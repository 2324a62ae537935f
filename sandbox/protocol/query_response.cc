#include "sandbox/protocol/query_response.h"

#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox {

QueryResponseWriter::QueryResponseWriter(const std::string& action, const std::string& xmlns,
                                         bool with_result) {
  pugi::xml_node decl = doc_.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  root_ = doc_.append_child((action + "Response").c_str());
  root_.append_attribute("xmlns") = xmlns.c_str();
  result_ = with_result ? root_.append_child((action + "Result").c_str())
                        : scratch_.append_child("Unused");
}

Response QueryResponseWriter::Finish(const std::string& request_id) {
  AddText(root_.append_child("ResponseMetadata"), "RequestId", request_id);
  Response response;
  response.body = RenderIndented(doc_);
  return response;
}

}  // namespace strata::sandbox
