#include "sandbox/protocol/xml_writer.h"

#include <sstream>

namespace strata::sandbox {

pugi::xml_node AddText(pugi::xml_node parent, const char* name, const std::string& value) {
  pugi::xml_node node = parent.append_child(name);
  node.text().set(value.c_str());
  return node;
}

pugi::xml_node AddBool(pugi::xml_node parent, const char* name, bool value) {
  return AddText(parent, name, value ? "true" : "false");
}

pugi::xml_node AddChild(pugi::xml_node parent, const char* name) {
  return parent.append_child(name);
}

pugi::xml_node AddItem(pugi::xml_node set) { return set.append_child("item"); }

pugi::xml_node AddStringList(pugi::xml_node parent, const char* name,
                             const std::vector<std::string>& values) {
  pugi::xml_node list = parent.append_child(name);
  for (const std::string& v : values) AddText(list, "member", v);
  return list;
}

pugi::xml_document NewXmlDocument() {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  return doc;
}

std::string RenderCompact(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw);
  return out.str();
}

std::string RenderIndented(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace strata::sandbox
