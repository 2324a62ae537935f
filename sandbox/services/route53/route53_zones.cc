// Route 53 hosted zones as the sandbox serves them: CreateHostedZone (with AWS's caller
// reference idempotency: a reference used again is HostedZoneAlreadyExists), GetHostedZone,
// ListHostedZones, ListHostedZonesByName, UpdateHostedZoneComment, a private zone's VPC
// associations (Associate/DisassociateVPC: never a public zone's, never its last), DeleteHostedZone (refused
// with HostedZoneNotEmpty while it holds records beyond its SOA and NS), GetChange and the
// zone's tags. A new zone gets its SOA and NS record sets and four name servers.

#include <algorithm>
#include <cctype>

#include "sandbox/protocol/rest_xml_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/route53/route53_store.h"

namespace strata::sandbox::route53 {
namespace {

constexpr const char* kAlphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr int kDefaultMaxItems = 100;

std::string BareId(const std::string& id, const std::string& prefix) {
  return id.rfind(prefix, 0) == 0 ? id.substr(prefix.size()) : id;
}

std::vector<std::string> NewNameServers(ServiceContext& ctx) {
  const char* tlds[] = {"com", "net", "org", "co.uk"};
  std::vector<std::string> out;
  for (const char* tld : tlds) {
    std::string n = std::to_string(std::stoi(ctx.world.RandomString(4, "0123456789")) % 2048);
    std::string d = ctx.world.RandomString(2, "0123456789");
    std::string server = "ns-" + n + ".awsdns-" + std::to_string(std::stoi(d) % 64) + "." + tld;
    out.push_back(server);
  }
  return out;
}

Json ApexRecords(const std::string& name, const std::vector<std::string>& name_servers) {
  Json ns = Json::array();
  for (const std::string& server : name_servers) ns.push_back(server + ".");
  Json soa = Json::array({name_servers[0] + ". awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400"});
  return Json::array({Json{{"Name", name}, {"Type", "NS"}, {"TTL", 172800}, {"Values", ns}},
                      Json{{"Name", name}, {"Type", "SOA"}, {"TTL", 900}, {"Values", soa}}});
}

Json MakeZone(ServiceContext& ctx, const std::string& name, const std::string& caller_reference,
              const std::string& comment, const Json& vpcs) {
  std::vector<std::string> servers = NewNameServers(ctx);
  Json zone{{"Id", "Z" + ctx.world.RandomString(20, kAlphanumeric)},
            {"Name", CanonicalDnsName(name)},
            {"CallerReference", caller_reference},
            {"Comment", comment},
            {"PrivateZone", !vpcs.empty()},
            {"Vpcs", vpcs},
            {"NameServers", servers},
            {"Tags", Json::object()}};
  zone["Records"] = ApexRecords(zone["Name"], servers);
  return zone;
}

void WriteZone(pugi::xml_node parent, const Json& zone) {
  pugi::xml_node z = AddChild(parent, "HostedZone");
  AddText(z, "Id", "/hostedzone/" + zone["Id"].get<std::string>());
  AddText(z, "Name", zone["Name"]);
  AddText(z, "CallerReference", zone["CallerReference"]);
  pugi::xml_node config = AddChild(z, "Config");
  if (!zone["Comment"].get<std::string>().empty()) AddText(config, "Comment", zone["Comment"]);
  AddBool(config, "PrivateZone", zone["PrivateZone"]);
  AddText(z, "ResourceRecordSetCount", std::to_string(zone["Records"].size()));
}

void WriteDelegationAndVpcs(pugi::xml_node parent, const Json& zone) {
  if (zone["PrivateZone"].get<bool>()) {
    pugi::xml_node vpcs = AddChild(parent, "VPCs");
    for (const Json& vpc : zone["Vpcs"]) {
      pugi::xml_node v = AddChild(vpcs, "VPC");
      AddText(v, "VPCRegion", vpc["VPCRegion"]);
      AddText(v, "VPCId", vpc["VPCId"]);
    }
    return;
  }
  pugi::xml_node servers = AddChild(AddChild(parent, "DelegationSet"), "NameServers");
  for (const Json& server : zone["NameServers"]) AddText(servers, "NameServer", server);
}

std::vector<Json> AllZones(ServiceContext& ctx) {
  std::vector<Json> out;
  for (auto& [id, zone] : ctx.world.List(kZoneKind)) out.push_back(zone);
  return out;
}

Json VpcsOf(pugi::xml_node request) {
  Json vpcs = Json::array();
  pugi::xml_node vpc = request.child("VPC");
  if (vpc && !std::string(vpc.child_value("VPCId")).empty())
    vpcs.push_back({{"VPCRegion", vpc.child_value("VPCRegion")}, {"VPCId", vpc.child_value("VPCId")}});
  return vpcs;
}

}  // namespace

std::string ReversedLabels(const std::string& name) {
  std::vector<std::string> labels;
  size_t start = 0;
  while (start < name.size()) {
    size_t dot = name.find('.', start);
    if (dot == std::string::npos) dot = name.size();
    labels.push_back(name.substr(start, dot - start));
    start = dot + 1;
  }
  std::string out;
  for (auto it = labels.rbegin(); it != labels.rend(); ++it) out += (out.empty() ? "" : ".") + *it;
  return out;
}

std::string QueryValue(const ServiceContext& ctx, const std::string& name) {
  auto it = ctx.request.query.find(name);
  return it == ctx.request.query.end() ? "" : it->second;
}

int MaxItems(const ServiceContext& ctx, int fallback) {
  std::string text = QueryValue(ctx, "maxitems");
  if (text.empty()) return fallback;
  try {
    int n = std::stoi(text);
    if (n > 0) return n;
  } catch (const std::exception&) {
  }
  throw ApiError(400, "InvalidInput", "1 validation error detected: Value '" + text + "' at 'maxItems' failed to satisfy constraint: Member must be a positive integer");
}

std::string CanonicalDnsName(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '*') {
      out += "\\052";
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (out.empty() || out.back() != '.') out += '.';
  return out;
}

Json LoadZone(ServiceContext& ctx, const std::string& id) {
  std::string bare = BareId(id, "/hostedzone/");
  std::optional<Json> zone = ctx.world.Get(kZoneKind, bare);
  if (!zone) throw ApiError(404, "NoSuchHostedZone", "No hosted zone found with ID: " + bare);
  return *zone;
}

void SaveZone(ServiceContext& ctx, const Json& zone) { ctx.world.Put(kZoneKind, zone["Id"], zone); }

std::string NewChange(ServiceContext& ctx, const std::string& comment) {
  std::string id = "C" + ctx.world.RandomString(20, kAlphanumeric);
  auto ready = ctx.now + ctx.settings.route53_change_delay;
  ctx.world.Put(kChangeKind, id,
                Json{{"Id", id},
                     {"Comment", comment},
                     {"SubmittedAt", IsoTime(ctx.now)},
                     {"ReadyAtMillis", std::chrono::duration_cast<std::chrono::milliseconds>(ready.time_since_epoch()).count()}});
  return id;
}

void WriteChangeInfo(ServiceContext& ctx, pugi::xml_node parent, const std::string& change_id) {
  std::optional<Json> change = ctx.world.Get(kChangeKind, change_id);
  if (!change) throw ApiError(404, "NoSuchChange", "A change with the specified change ID does not exist.");
  int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.now.time_since_epoch()).count();
  pugi::xml_node info = AddChild(parent, "ChangeInfo");
  AddText(info, "Id", "/change/" + change_id);
  AddText(info, "Status", now_ms >= (*change)["ReadyAtMillis"].get<int64_t>() ? "INSYNC" : "PENDING");
  AddText(info, "SubmittedAt", (*change)["SubmittedAt"]);
  if (!(*change)["Comment"].get<std::string>().empty()) AddText(info, "Comment", (*change)["Comment"]);
}

pugi::xml_document Route53Document(const char* root) { return RestXmlDocument(root, kXmlns); }

Response Route53Response(const pugi::xml_document& doc, int status) { return RestXmlResponse(doc, status, "text/xml"); }

pugi::xml_node ParseRoute53Body(const ServiceContext& ctx, pugi::xml_document& doc) {
  return ParseXmlBody(ctx.request.body, doc, "InvalidInput", "The request body is not a Route 53 XML document.");
}

Response CreateHostedZone(ServiceContext& ctx) {
  pugi::xml_document body;
  pugi::xml_node request = ParseRoute53Body(ctx, body);
  std::string name = request.child_value("Name");
  std::string reference = request.child_value("CallerReference");
  if (name.empty() || reference.empty())
    throw ApiError(400, "InvalidInput", "A hosted zone needs a Name and a CallerReference.");
  for (const Json& zone : AllZones(ctx)) {
    if (zone["CallerReference"] == reference)
      throw ApiError(409, "HostedZoneAlreadyExists",
                     "A hosted zone has already been created with the specified caller reference.");
  }
  Json vpcs = VpcsOf(request);
  bool private_zone = std::string(request.child("HostedZoneConfig").child_value("PrivateZone")) == "true";
  if (private_zone && vpcs.empty())
    throw ApiError(400, "InvalidInput", "When you're creating a private hosted zone (when you specify true for PrivateZone), you must also specify values for VPCId and VPCRegion.");
  Json zone = MakeZone(ctx, name, reference, request.child("HostedZoneConfig").child_value("Comment"), vpcs);
  SaveZone(ctx, zone);
  std::string change = NewChange(ctx, "");
  pugi::xml_document doc = Route53Document("CreateHostedZoneResponse");
  pugi::xml_node root = doc.document_element();
  WriteZone(root, zone);
  WriteChangeInfo(ctx, root, change);
  WriteDelegationAndVpcs(root, zone);
  if (!vpcs.empty()) {
    pugi::xml_node v = AddChild(root, "VPC");
    AddText(v, "VPCRegion", vpcs[0]["VPCRegion"]);
    AddText(v, "VPCId", vpcs[0]["VPCId"]);
  }
  Response response = Route53Response(doc, 201);
  response.headers["Location"] = "https://route53.amazonaws.com/2013-04-01/hostedzone/" + zone["Id"].get<std::string>();
  return response;
}

Response GetHostedZone(ServiceContext& ctx, const std::string& id) {
  Json zone = LoadZone(ctx, id);
  pugi::xml_document doc = Route53Document("GetHostedZoneResponse");
  WriteZone(doc.document_element(), zone);
  WriteDelegationAndVpcs(doc.document_element(), zone);
  return Route53Response(doc);
}

Response ListHostedZones(ServiceContext& ctx) {
  std::vector<Json> zones = AllZones(ctx);
  std::string marker = QueryValue(ctx, "marker");
  int max_items = MaxItems(ctx, kDefaultMaxItems);
  auto begin = zones.begin();
  if (!marker.empty())
    begin = std::find_if(zones.begin(), zones.end(), [&](const Json& z) { return z["Id"] == marker; });
  pugi::xml_document doc = Route53Document("ListHostedZonesResponse");
  pugi::xml_node root = doc.document_element();
  pugi::xml_node list = AddChild(root, "HostedZones");
  auto it = begin;
  for (int n = 0; it != zones.end() && n < max_items; ++it, ++n) WriteZone(list, *it);
  if (!marker.empty()) AddText(root, "Marker", marker);
  AddBool(root, "IsTruncated", it != zones.end());
  if (it != zones.end()) AddText(root, "NextMarker", (*it)["Id"]);
  AddText(root, "MaxItems", std::to_string(max_items));
  return Route53Response(doc);
}

Response ListHostedZonesByName(ServiceContext& ctx) {
  std::vector<Json> zones = AllZones(ctx);
  std::stable_sort(zones.begin(), zones.end(), [](const Json& a, const Json& b) {
    std::string ka = ReversedLabels(a["Name"]), kb = ReversedLabels(b["Name"]);
    return ka != kb ? ka < kb : a["Id"].get<std::string>() < b["Id"].get<std::string>();
  });
  std::string dns_name = QueryValue(ctx, "dnsname");
  std::string zone_id = QueryValue(ctx, "hostedzoneid");
  int max_items = MaxItems(ctx, kDefaultMaxItems);
  auto it = zones.begin();
  if (!dns_name.empty()) {
    std::string start = ReversedLabels(CanonicalDnsName(dns_name));
    it = std::find_if(zones.begin(), zones.end(), [&](const Json& z) {
      std::string key = ReversedLabels(z["Name"]);
      return key > start || (key == start && (zone_id.empty() || z["Id"].get<std::string>() >= zone_id));
    });
  }
  pugi::xml_document doc = Route53Document("ListHostedZonesByNameResponse");
  pugi::xml_node root = doc.document_element();
  pugi::xml_node list = AddChild(root, "HostedZones");
  for (int n = 0; it != zones.end() && n < max_items; ++it, ++n) WriteZone(list, *it);
  if (!dns_name.empty()) AddText(root, "DNSName", dns_name);
  if (!zone_id.empty()) AddText(root, "HostedZoneId", zone_id);
  AddBool(root, "IsTruncated", it != zones.end());
  if (it != zones.end()) {
    AddText(root, "NextDNSName", (*it)["Name"]);
    AddText(root, "NextHostedZoneId", (*it)["Id"]);
  }
  AddText(root, "MaxItems", std::to_string(max_items));
  return Route53Response(doc);
}

Response UpdateHostedZoneComment(ServiceContext& ctx, const std::string& id) {
  Json zone = LoadZone(ctx, id);
  pugi::xml_document body;
  zone["Comment"] = ParseRoute53Body(ctx, body).child_value("Comment");
  SaveZone(ctx, zone);
  pugi::xml_document doc = Route53Document("UpdateHostedZoneCommentResponse");
  WriteZone(doc.document_element(), zone);
  return Route53Response(doc);
}

Response DeleteHostedZone(ServiceContext& ctx, const std::string& id) {
  Json zone = LoadZone(ctx, id);
  for (const Json& record : zone["Records"]) {
    bool apex = record["Name"] == zone["Name"];
    if (!(apex && (record["Type"] == "SOA" || record["Type"] == "NS")))
      throw ApiError(400, "HostedZoneNotEmpty",
                     "The hosted zone contains resource records that are not SOA or NS records.");
  }
  ctx.world.Erase(kZoneKind, zone["Id"]);
  std::string change = NewChange(ctx, "");
  pugi::xml_document doc = Route53Document("DeleteHostedZoneResponse");
  WriteChangeInfo(ctx, doc.document_element(), change);
  return Route53Response(doc);
}

namespace {

//! The <VPC> of an Associate/Disassociate request; InvalidInput when it names none.
Json RequestedVpc(ServiceContext& ctx) {
  pugi::xml_document body;
  Json vpcs = VpcsOf(ParseRoute53Body(ctx, body));
  if (vpcs.empty()) throw ApiError(400, "InvalidInput", "A VPC association needs a VPCId and a VPCRegion.");
  return vpcs[0];
}

//! Saves `zone` with its new associations and answers <root><ChangeInfo>.
Response SaveVpcChange(ServiceContext& ctx, const Json& zone, const char* root) {
  SaveZone(ctx, zone);
  pugi::xml_document doc = Route53Document(root);
  WriteChangeInfo(ctx, doc.document_element(), NewChange(ctx, ""));
  return Route53Response(doc);
}

}  // namespace

Response AssociateVPCWithHostedZone(ServiceContext& ctx, const std::string& id) {
  Json zone = LoadZone(ctx, id);
  Json wanted = RequestedVpc(ctx);
  if (!zone["PrivateZone"].get<bool>())
    throw ApiError(400, "PublicZoneVPCAssociation", "You're trying to associate a VPC with a public hosted zone.");
  for (const Json& vpc : zone["Vpcs"])
    if (vpc["VPCId"] == wanted["VPCId"])
      throw ApiError(400, "ConflictingDomainExists", "The VPC is already associated with the hosted zone.");
  zone["Vpcs"].push_back(wanted);
  return SaveVpcChange(ctx, zone, "AssociateVPCWithHostedZoneResponse");
}

Response DisassociateVPCFromHostedZone(ServiceContext& ctx, const std::string& id) {
  Json zone = LoadZone(ctx, id);
  Json dropped = RequestedVpc(ctx);
  Json kept = Json::array();
  for (const Json& vpc : zone["Vpcs"])
    if (vpc["VPCId"] != dropped["VPCId"]) kept.push_back(vpc);
  if (kept.size() == zone["Vpcs"].size())
    throw ApiError(404, "VPCAssociationNotFound", "The specified VPC and hosted zone are not currently associated.");
  if (kept.empty())
    throw ApiError(400, "LastVPCAssociation",
                   "The VPC that you're trying to disassociate from the private hosted zone is the last VPC that is associated with the hosted zone.");
  zone["Vpcs"] = kept;
  return SaveVpcChange(ctx, zone, "DisassociateVPCFromHostedZoneResponse");
}

Response GetChange(ServiceContext& ctx, const std::string& id) {
  pugi::xml_document doc = Route53Document("GetChangeResponse");
  WriteChangeInfo(ctx, doc.document_element(), BareId(id, "/change/"));
  return Route53Response(doc);
}

namespace {

Json TaggedZone(ServiceContext& ctx, const std::string& type, const std::string& id) {
  if (type != "hostedzone")
    throw ApiError(400, "InvalidInput", "The sandbox tags hosted zones only (ResourceType \"hostedzone\"), not \"" + type + "\".");
  return LoadZone(ctx, id);
}

}  // namespace

Response ChangeTagsForResource(ServiceContext& ctx, const std::string& type, const std::string& id) {
  Json zone = TaggedZone(ctx, type, id);
  pugi::xml_document body;
  pugi::xml_node request = ParseRoute53Body(ctx, body);
  for (pugi::xml_node tag : request.child("AddTags").children("Tag"))
    zone["Tags"][tag.child_value("Key")] = tag.child_value("Value");
  for (pugi::xml_node key : request.child("RemoveTagKeys").children("Key")) zone["Tags"].erase(key.text().as_string());
  SaveZone(ctx, zone);
  return Route53Response(Route53Document("ChangeTagsForResourceResponse"));
}

Response ListTagsForResource(ServiceContext& ctx, const std::string& type, const std::string& id) {
  Json zone = TaggedZone(ctx, type, id);
  pugi::xml_document doc = Route53Document("ListTagsForResourceResponse");
  pugi::xml_node set = AddChild(doc.document_element(), "ResourceTagSet");
  AddText(set, "ResourceType", type);
  AddText(set, "ResourceId", zone["Id"]);
  pugi::xml_node tags = AddChild(set, "Tags");
  for (const auto& [key, value] : zone["Tags"].items()) {
    pugi::xml_node tag = AddChild(tags, "Tag");
    AddText(tag, "Key", key);
    AddText(tag, "Value", value.get<std::string>());
  }
  return Route53Response(doc);
}

void SeedHostedZone(ServiceContext& ctx, const std::string& name) {
  std::string canonical = CanonicalDnsName(name);
  for (const Json& zone : AllZones(ctx))
    if (zone["Name"] == canonical) return;
  SaveZone(ctx, MakeZone(ctx, name, "strata-sandbox-seed-" + canonical, "seeded by the sandbox settings", Json::array()));
}

}  // namespace strata::sandbox::route53
