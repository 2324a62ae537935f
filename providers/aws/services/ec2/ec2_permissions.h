#pragma once
// Security group permissions, between three shapes:
//  - AWS's IpPermissions: one entry per (protocol, port range) listing its sources
//    (ipRanges, ipv6Ranges, prefixListIds, groups), each source with its own description;
//  - Terraform's rule objects (aws_security_group's ingress/egress blocks): protocol,
//    from_port, to_port, description and lists of sources, plus `self`;
//  - atoms: one (protocol, ports, source, description) each, the unit both of the others
//    are compared and converted through.
// Rules are kept canonical: one rule per (protocol, from_port, to_port, description) with
// sorted sources, protocol names as AWS writes them ("-1" for all, "tcp" for "6"), ports
// 0/0 for protocol "-1". Config goes through the same canonical form at plan time, so a
// read of what was written plans no change.

#include <string>
#include <vector>

#include <pugixml.hpp>

#include "engine/value/value.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

//! The source of an atom that is the security group itself (`self = true`).
inline constexpr const char* kSelfSource = "self";

struct PermissionAtom {
  enum class Kind { Cidr, Ipv6Cidr, PrefixList, Group };

  std::string protocol;  //!< canonical, see NormalizeProtocol
  int from_port = 0;
  int to_port = 0;
  Kind kind = Kind::Cidr;
  std::string source;  //!< a CIDR, a prefix list id, a group id or kSelfSource
  std::string description;

  //! Same permission and source (what Revoke needs); descriptions may differ.
  bool SameSource(const PermissionAtom& o) const;
  bool operator==(const PermissionAtom& o) const { return SameSource(o) && description == o.description; }
};

//! "all" and "-1" → "-1"; "6"/"17"/"1"/"58" → "tcp"/"udp"/"icmp"/"icmpv6"; lower case.
std::string NormalizeProtocol(const std::string& protocol);

//! The atoms of an <ipPermissions> or <ipPermissionsEgress> node; group `self_id` becomes
//! kSelfSource.
std::vector<PermissionAtom> ReadPermissionAtoms(pugi::xml_node permissions, const std::string& self_id);

//! Adds IpPermissions.<n>.* for `atoms` (grouped by protocol and ports); kSelfSource
//! becomes `self_id`.
void AddPermissions(QueryRequest& call, const std::vector<PermissionAtom>& atoms,
                    const std::string& self_id);

//! The atoms of a set/list of Terraform rule objects; null gives none. `rules` must be
//! wholly known.
std::vector<PermissionAtom> AtomsFromRules(const Value& rules);
//! The canonical set of rule objects holding `atoms`.
Value RulesFromAtoms(const std::vector<PermissionAtom>& atoms);
//! `rules` in canonical form; unknown or null values are returned as they are.
Value CanonicalRules(const Value& rules);

//! The atoms of `a` that have no equal in `b`.
std::vector<PermissionAtom> AtomsMissingFrom(const std::vector<PermissionAtom>& a,
                                             const std::vector<PermissionAtom>& b);

//! The schema type of aws_security_group's ingress and egress.
inline constexpr const char* kRuleSetType =
    "set(object({from_port=number, to_port=number, protocol=string,"
    " cidr_blocks=optional(list(string), []), ipv6_cidr_blocks=optional(list(string), []),"
    " prefix_list_ids=optional(list(string), []), security_groups=optional(set(string), []),"
    " self=optional(bool, false), description=optional(string, \"\")}))";

}  // namespace strata::aws
