#pragma once
// Building and serializing the XML documents of the query protocols (IAM, STS, EC2) and
// their error shapes with pugixml. Text is escaped by pugixml; nothing here knows a
// service. The envelopes are query_response.h (IAM/STS), ec2_response.h (EC2) and
// error_shapes.h.

#include <pugixml.hpp>
#include <string>
#include <vector>

namespace strata::sandbox {

//! Appends <name>value</name> to `parent` and returns the new element.
pugi::xml_node AddText(pugi::xml_node parent, const char* name, const std::string& value);
//! Appends <name>true|false</name>.
pugi::xml_node AddBool(pugi::xml_node parent, const char* name, bool value);
//! Appends an empty <name/> (a structure or a list to fill).
pugi::xml_node AddChild(pugi::xml_node parent, const char* name);
//! Appends an <item/> to an EC2 set (<groupSet><item>...).
pugi::xml_node AddItem(pugi::xml_node set);
//! Appends <name><member>v</member>...</name>, an awsQuery list of strings.
pugi::xml_node AddStringList(pugi::xml_node parent, const char* name,
                             const std::vector<std::string>& values);

//! A document holding only the declaration <?xml version="1.0" encoding="UTF-8"?>.
pugi::xml_document NewXmlDocument();
//! The document in one line, declaration first, no indentation (EC2's answers, every
//! error shape).
std::string RenderCompact(const pugi::xml_document& doc);
//! The document indented by two spaces, one element a line (IAM's and STS's answers).
std::string RenderIndented(const pugi::xml_document& doc);

}  // namespace strata::sandbox
