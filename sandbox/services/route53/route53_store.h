#pragma once
// The sandbox's Route 53 objects in the world and their XML shapes, shared by the zone and
// record set handlers.
//
// Storage: World documents under "route53.zone" keyed by zone id ("Z0123..."), holding the
// zone, its tags and its record sets, and "route53.change" keyed by change id, holding when
// the change becomes INSYNC (settings.route53_change_delay after it was made).

#include <string>

#include <pugixml.hpp>

#include "sandbox/protocol/api_error.h"
#include "sandbox/service.h"

namespace strata::sandbox::route53 {

inline constexpr const char* kZoneKind = "route53.zone";
inline constexpr const char* kChangeKind = "route53.change";
inline constexpr const char* kXmlns = "https://route53.amazonaws.com/doc/2013-04-01/";

//! A DNS name as Route 53 keeps it: lower case, a trailing dot, '*' written "\052".
std::string CanonicalDnsName(const std::string& name);

//! "www.example.com." -> "com.example.www": the order Route 53 lists zones and records in.
std::string ReversedLabels(const std::string& name);

//! The zone `id` names ("Z123" or "/hostedzone/Z123"); NoSuchHostedZone (404) when none.
Json LoadZone(ServiceContext& ctx, const std::string& id);
void SaveZone(ServiceContext& ctx, const Json& zone);

//! The query parameter `name` ("" when absent).
std::string QueryValue(const ServiceContext& ctx, const std::string& name);
//! The maxitems parameter, `fallback` when absent; InvalidInput when not a positive number.
int MaxItems(const ServiceContext& ctx, int fallback);

//! Records a change made now and returns its id ("C0123...").
std::string NewChange(ServiceContext& ctx, const std::string& comment);
//! <ChangeInfo><Id>/change/C..</Id><Status/><SubmittedAt/>[<Comment/>]</ChangeInfo> of `change`.
void WriteChangeInfo(ServiceContext& ctx, pugi::xml_node parent, const std::string& change_id);

//! A document <root xmlns=Route 53's> to answer with.
pugi::xml_document Route53Document(const char* root);
//! The answer: `doc`, text/xml, with `status`.
Response Route53Response(const pugi::xml_document& doc, int status = 200);

//! The request body's root element, parsed into `doc`; InvalidInput (400) when it is not XML.
pugi::xml_node ParseRoute53Body(const ServiceContext& ctx, pugi::xml_document& doc);

// Handlers (route53_zones.cc, route53_records.cc).
Response CreateHostedZone(ServiceContext& ctx);
Response GetHostedZone(ServiceContext& ctx, const std::string& id);
Response ListHostedZones(ServiceContext& ctx);
Response ListHostedZonesByName(ServiceContext& ctx);
Response UpdateHostedZoneComment(ServiceContext& ctx, const std::string& id);
Response DeleteHostedZone(ServiceContext& ctx, const std::string& id);
Response AssociateVPCWithHostedZone(ServiceContext& ctx, const std::string& id);
Response DisassociateVPCFromHostedZone(ServiceContext& ctx, const std::string& id);
Response GetChange(ServiceContext& ctx, const std::string& id);
Response ChangeTagsForResource(ServiceContext& ctx, const std::string& type, const std::string& id);
Response ListTagsForResource(ServiceContext& ctx, const std::string& type, const std::string& id);
Response ChangeResourceRecordSets(ServiceContext& ctx, const std::string& zone_id);
Response ListResourceRecordSets(ServiceContext& ctx, const std::string& zone_id);

//! Makes a public zone named `name` unless the world holds one of that name.
void SeedHostedZone(ServiceContext& ctx, const std::string& name);

}  // namespace strata::sandbox::route53
