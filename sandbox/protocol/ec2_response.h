#pragma once
// The answer envelope of EC2's query protocol: flat, on one line, the request id first,
// the action's result elements directly under the root:
//   <?xml version="1.0" encoding="UTF-8"?><DescribeVpcsResponse xmlns="http://ec2...">
//   <requestId>...</requestId><vpcSet><item>...</item></vpcSet></DescribeVpcsResponse>

#include <pugixml.hpp>
#include <string>

#include "sandbox/protocol/response.h"

namespace strata::sandbox {

//! One answer being written.
class Ec2ResponseWriter {
 public:
  //! Starts <`action`Response xmlns=`xmlns`><requestId>`request_id`</requestId>.
  Ec2ResponseWriter(const std::string& action, const std::string& xmlns,
                    const std::string& request_id);
  //! The <ActionResponse> root, where the handler appends its result.
  pugi::xml_node root() const { return root_; }
  //! Renders the document (200, text/xml).
  Response Finish() const;

 private:
  pugi::xml_document doc_;
  pugi::xml_node root_;
};

//! <return>true</return>: the answer of EC2's actions that only succeed or fail.
void AddReturnTrue(pugi::xml_node response);

}  // namespace strata::sandbox
