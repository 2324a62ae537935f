#include "sandbox/protocol/ec2_response.h"

#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox {

Ec2ResponseWriter::Ec2ResponseWriter(const std::string& action, const std::string& xmlns,
                                     const std::string& request_id)
    : doc_(NewXmlDocument()) {
  root_ = doc_.append_child((action + "Response").c_str());
  root_.append_attribute("xmlns").set_value(xmlns.c_str());
  AddText(root_, "requestId", request_id);
}

Response Ec2ResponseWriter::Finish() const {
  Response response;
  response.body = RenderCompact(doc_);
  return response;
}

void AddReturnTrue(pugi::xml_node response) { AddBool(response, "return", true); }

}  // namespace strata::sandbox
