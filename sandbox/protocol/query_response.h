#pragma once
// The answer envelope of the awsQuery protocol (IAM, STS), indented as AWS sends it:
//   <?xml version="1.0"?>
//   <CreateRoleResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/">
//     <CreateRoleResult>...</CreateRoleResult>
//     <ResponseMetadata><RequestId>...</RequestId></ResponseMetadata>
//   </CreateRoleResponse>
// Actions without an output shape (DeleteRole, TagRole...) answer without the Result.

#include <pugixml.hpp>
#include <string>

#include "sandbox/protocol/response.h"

namespace strata::sandbox {

//! One answer being written.
class QueryResponseWriter {
 public:
  //! Starts <`action`Response xmlns=`xmlns`>, with a <`action`Result> when `with_result`.
  QueryResponseWriter(const std::string& action, const std::string& xmlns, bool with_result);
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

}  // namespace strata::sandbox
