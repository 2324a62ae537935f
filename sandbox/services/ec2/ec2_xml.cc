#include "sandbox/services/ec2/ec2_xml.h"

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

pugi::xml_node AddChild(pugi::xml_node parent, const char* name) { return parent.append_child(name); }

pugi::xml_node AddItem(pugi::xml_node set) { return set.append_child("item"); }

void AddReturnTrue(pugi::xml_node response) { AddBool(response, "return", true); }

std::string RenderEc2Response(const pugi::xml_document& doc) {
  std::ostringstream out;
  out << R"(<?xml version="1.0" encoding="UTF-8"?>)";
  doc.save(out, "", pugi::format_raw | pugi::format_no_declaration);
  return out.str();
}

}  // namespace strata::sandbox
