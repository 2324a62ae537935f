#pragma once
// The parameters of one query-protocol call (IAM, STS, EC2), decoded, and the shapes the
// protocol flattens lists and structures into:
//   scalars             Action=CreateRole&RoleName=app
//   member lists        ThumbprintList.member.1=...&ThumbprintList.member.2=...  (IAM, STS)
//   numbered lists      ZoneName.1=...&ZoneName.2=...                              (EC2)
//   lists of structures Tags.member.1.Key=k&Tags.member.1.Value=v, Filter.1.Name=...
// Indices need not be dense nor sorted as text ("x.10" comes after "x.9"). This class only
// reads; the typed getters that refuse a missing or malformed value in each protocol's
// words are AwsQueryParams (aws_query_params.h) and Ec2QueryParams (ec2_query_params.h).

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace strata::sandbox {

//! application/x-www-form-urlencoded: '&'-separated pairs, '+' for space, %XX escapes.
//! Decoded pairs go into `out`; a later pair wins over an earlier one with the same name.
void DecodeForm(std::string_view text, std::map<std::string, std::string>& out);

//! A query-protocol call's parameters: the URL query's, then (for POST) the form-encoded
//! body's, which win over the query's.
std::map<std::string, std::string> QueryProtocolParams(
    const std::string& method, const std::multimap<std::string, std::string>& query,
    const std::string& body);

class QueryParams {
 public:
  explicit QueryParams(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  //! The value, or `fallback` when the parameter is absent.
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  //! The "Action" parameter; "" when absent.
  std::string Action() const { return Get("Action"); }

  //! "<name>.member.<n>" values in the order of n (gaps allowed).
  std::vector<std::string> MemberList(const std::string& name) const;
  //! "<name>.member.<n>.<Field>" grouped by n, in the order of n: {n: {Field: value}}.
  std::map<long, std::map<std::string, std::string>> MemberStructs(const std::string& name) const;
  //! The prefixes "<prefix>.<n>" (n of at most six digits) under which parameters exist,
  //! scalar or structure, in the order of n: "IpPermissions.1", "IpPermissions.2", ...
  std::vector<std::string> NumberedMembers(const std::string& prefix) const;
  //! The values of "<prefix>.1", "<prefix>.2", ... in the order of n.
  std::vector<std::string> NumberedList(const std::string& prefix) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace strata::sandbox
