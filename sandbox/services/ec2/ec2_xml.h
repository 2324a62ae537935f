#pragma once
// Writing EC2's response XML: text elements, <xxxSet><item> lists, <return>true</return>.

#include <string>

#include <pugixml.hpp>

namespace strata::sandbox {

//! Appends <name>value</name> to `parent` and returns the new element.
pugi::xml_node AddText(pugi::xml_node parent, const char* name, const std::string& value);
//! Appends <name>true|false</name>.
pugi::xml_node AddBool(pugi::xml_node parent, const char* name, bool value);
//! Appends an empty <name/> (a structure or a set to fill).
pugi::xml_node AddChild(pugi::xml_node parent, const char* name);
//! Appends an <item/> to a set.
pugi::xml_node AddItem(pugi::xml_node set);
//! <return>true</return>: the answer of EC2's actions that only succeed or fail.
void AddReturnTrue(pugi::xml_node response);

//! The document as EC2 sends it: the XML declaration, then the root element, unindented.
std::string RenderEc2Response(const pugi::xml_document& doc);

}  // namespace strata::sandbox
