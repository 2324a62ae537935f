#pragma once
// Writing query-protocol answers (IAM, STS) with pugixml:
//   <CreateRoleResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/">
//     <CreateRoleResult>...</CreateRoleResult>
//     <ResponseMetadata><RequestId>...</RequestId></ResponseMetadata>
//   </CreateRoleResponse>
// Actions without an output shape (DeleteRole, TagRole...) answer without the Result.

#include <string>
#include <vector>

#include <pugixml.hpp>

#include "sandbox/service.h"

namespace strata::sandbox::iam {

inline constexpr const char* kIamXmlns = "https://iam.amazonaws.com/doc/2010-05-08/";
inline constexpr const char* kStsXmlns = "https://sts.amazonaws.com/doc/2011-06-15/";

//! One answer being written.
class QueryAnswer {
 public:
  //! Starts <`action`Response xmlns=`xmlns`>, with a <`action`Result> when `with_result`.
  QueryAnswer(const std::string& action, const std::string& xmlns, bool with_result);
  //! The <ActionResult> element; without a result, a detached scratch node whose
  //! content is never sent.
  pugi::xml_node result() const { return result_; }
  //! Adds the ResponseMetadata and renders the document (200, text/xml).
  Response Finish(const std::string& request_id);

 private:
  pugi::xml_document doc_;
  pugi::xml_document scratch_;
  pugi::xml_node root_;
  pugi::xml_node result_;
};

//! Appends <name>value</name> to `parent` and returns it.
pugi::xml_node AddText(pugi::xml_node parent, const char* name, const std::string& value);
//! Appends <name>true|false</name>.
pugi::xml_node AddBool(pugi::xml_node parent, const char* name, bool value);
//! Appends <name><member>v</member>...</name>.
pugi::xml_node AddStringList(pugi::xml_node parent, const char* name,
                             const std::vector<std::string>& values);

//! A policy document as IAM returns it: percent-encoded (RFC 3986, space as %20).
std::string EncodePolicyDocument(const std::string& document);

}  // namespace strata::sandbox::iam
