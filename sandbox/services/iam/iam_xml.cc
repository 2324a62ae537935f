#include "sandbox/services/iam/iam_xml.h"

#include <sstream>

#include "providers/aws/http/url.h"

namespace strata::sandbox::iam {

QueryAnswer::QueryAnswer(const std::string& action, const std::string& xmlns, bool with_result) {
  pugi::xml_node decl = doc_.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  root_ = doc_.append_child((action + "Response").c_str());
  root_.append_attribute("xmlns") = xmlns.c_str();
  result_ = with_result ? root_.append_child((action + "Result").c_str())
                        : scratch_.append_child("Unused");
}

Response QueryAnswer::Finish(const std::string& request_id) {
  AddText(root_.append_child("ResponseMetadata"), "RequestId", request_id);
  std::ostringstream out;
  doc_.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  Response response;
  response.body = out.str();
  return response;
}

pugi::xml_node AddText(pugi::xml_node parent, const char* name, const std::string& value) {
  pugi::xml_node node = parent.append_child(name);
  node.text().set(value.c_str());
  return node;
}

pugi::xml_node AddBool(pugi::xml_node parent, const char* name, bool value) {
  return AddText(parent, name, value ? "true" : "false");
}

pugi::xml_node AddStringList(pugi::xml_node parent, const char* name,
                             const std::vector<std::string>& values) {
  pugi::xml_node list = parent.append_child(name);
  for (const std::string& v : values) AddText(list, "member", v);
  return list;
}

std::string EncodePolicyDocument(const std::string& document) { return aws::UriEncode(document); }

}  // namespace strata::sandbox::iam
