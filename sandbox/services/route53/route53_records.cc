// Route 53 record sets as the sandbox serves them: ChangeResourceRecordSets (CREATE, UPSERT
// and DELETE, applied all or nothing, refused with AWS's InvalidChangeBatch messages when a
// CREATE meets an existing set, a DELETE names a missing one or values that differ, a name
// lies outside the zone, or an alias targets nothing the sandbox knows) and
// ListResourceRecordSets (sorted by reversed name, then type, from name/type/identifier).
//
// An alias target exists when its HostedZoneId names a hosted zone of the sandbox, or when
// it is a load balancer of the world (kind "elbv2_load_balancer": its CanonicalHostedZoneId
// and DNSName, with or without "dualstack.").

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/route53/route53_store.h"

namespace strata::sandbox::route53 {
namespace {

constexpr int kDefaultRecordMaxItems = 300;

std::string RecordLabel(const Json& record) {
  return "[name='" + record["Name"].get<std::string>() + "', type='" + record["Type"].get<std::string>() +
         (record.contains("SetIdentifier") ? "', set-identifier='" + record["SetIdentifier"].get<std::string>() : "") +
         "']";
}

ApiError InvalidChangeBatch(const std::string& message) {
  return ApiError(400, "InvalidChangeBatch", "[" + message + "]");
}

Json RecordFromXml(pugi::xml_node set) {
  Json record{{"Name", CanonicalDnsName(set.child_value("Name"))}, {"Type", set.child_value("Type")}};
  if (set.child("SetIdentifier")) record["SetIdentifier"] = set.child_value("SetIdentifier");
  if (set.child("Weight")) record["Weight"] = set.child("Weight").text().as_llong();
  if (set.child("TTL")) record["TTL"] = set.child("TTL").text().as_llong();
  Json values = Json::array();
  for (pugi::xml_node value : set.child("ResourceRecords").children("ResourceRecord"))
    values.push_back(value.child_value("Value"));
  if (!values.empty()) record["Values"] = values;
  if (pugi::xml_node alias = set.child("AliasTarget")) {
    record["Alias"] = {{"HostedZoneId", alias.child_value("HostedZoneId")},
                       {"DNSName", CanonicalDnsName(alias.child_value("DNSName"))},
                       {"EvaluateTargetHealth", std::string(alias.child_value("EvaluateTargetHealth")) == "true"}};
  }
  return record;
}

void WriteRecord(pugi::xml_node parent, const Json& record) {
  pugi::xml_node set = AddChild(parent, "ResourceRecordSet");
  AddText(set, "Name", record["Name"]);
  AddText(set, "Type", record["Type"]);
  if (record.contains("SetIdentifier")) AddText(set, "SetIdentifier", record["SetIdentifier"]);
  if (record.contains("Weight")) AddText(set, "Weight", std::to_string(record["Weight"].get<int64_t>()));
  if (record.contains("TTL")) AddText(set, "TTL", std::to_string(record["TTL"].get<int64_t>()));
  if (record.contains("Values")) {
    pugi::xml_node values = AddChild(set, "ResourceRecords");
    for (const Json& value : record["Values"]) AddText(AddChild(values, "ResourceRecord"), "Value", value);
  }
  if (record.contains("Alias")) {
    const Json& alias = record["Alias"];
    pugi::xml_node target = AddChild(set, "AliasTarget");
    AddText(target, "HostedZoneId", alias["HostedZoneId"]);
    AddText(target, "DNSName", alias["DNSName"]);
    AddBool(target, "EvaluateTargetHealth", alias["EvaluateTargetHealth"]);
  }
}

bool SameRecordKey(const Json& a, const Json& b) {
  return a["Name"] == b["Name"] && a["Type"] == b["Type"] && a.value("SetIdentifier", "") == b.value("SetIdentifier", "");
}

//! The values a DELETE must match: TTL, values (in any order), alias target, weight.
bool SameRecordValues(Json a, Json b) {
  for (Json* r : {&a, &b})
    if (r->contains("Values")) std::sort((*r)["Values"].begin(), (*r)["Values"].end());
  return a == b;
}

void CheckAliasTarget(ServiceContext& ctx, const Json& record) {
  const Json& alias = record["Alias"];
  std::string zone_id = alias["HostedZoneId"];
  std::string dns_name = alias["DNSName"];
  if (ctx.world.Get(kZoneKind, zone_id)) return;
  std::string bare = dns_name.rfind("dualstack.", 0) == 0 ? dns_name.substr(10) : dns_name;
  for (auto& [id, lb] : ctx.world.List("elbv2_load_balancer")) {
    if (lb.value("CanonicalHostedZoneId", "") == zone_id && CanonicalDnsName(lb.value("DNSName", "")) == bare) return;
  }
  throw InvalidChangeBatch("Tried to create an alias that targets " + dns_name + ", type " +
                           record["Type"].get<std::string>() + " in zone " + zone_id +
                           ", but that target was not found");
}

void ApplyChange(ServiceContext& ctx, const Json& zone, Json& records, const std::string& action, const Json& record) {
  const std::string& zone_name = zone["Name"].get_ref<const std::string&>();
  const std::string& name = record["Name"].get_ref<const std::string&>();
  bool inside = name == zone_name || (name.size() > zone_name.size() &&
                                      name.compare(name.size() - zone_name.size() - 1, std::string::npos, "." + zone_name) == 0);
  if (!inside) throw InvalidChangeBatch("RRSet with DNS name " + name + " is not permitted in zone " + zone_name);
  if (record["Type"].get<std::string>().empty()) throw ApiError(400, "InvalidInput", "A record set needs a Type.");
  auto found = std::find_if(records.begin(), records.end(), [&](const Json& r) { return SameRecordKey(r, record); });
  if (action == "DELETE") {
    if (found == records.end())
      throw InvalidChangeBatch("Tried to delete resource record set " + RecordLabel(record) + " but it was not found");
    if (!SameRecordValues(*found, record))
      throw InvalidChangeBatch("Tried to delete resource record set " + RecordLabel(record) +
                               " but the values provided do not match the current values");
    records.erase(found);
    return;
  }
  if (action != "CREATE" && action != "UPSERT")
    throw ApiError(400, "InvalidInput", "Invalid change action \"" + action + "\": CREATE, DELETE or UPSERT.");
  if (!record.contains("Values") && !record.contains("Alias"))
    throw InvalidChangeBatch("Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords]], but found none in Change with [Action=" + action + ", Name=" + name + ", Type=" + record["Type"].get<std::string>() + "]");
  if (record.contains("Alias")) CheckAliasTarget(ctx, record);
  if (found != records.end()) {
    if (action == "CREATE")
      throw InvalidChangeBatch("Tried to create resource record set " + RecordLabel(record) + " but it already exists");
    *found = record;
    return;
  }
  records.push_back(record);
}

bool RecordBefore(const Json& a, const Json& b) {
  std::string ka = ReversedLabels(a["Name"]), kb = ReversedLabels(b["Name"]);
  if (ka != kb) return ka < kb;
  if (a["Type"] != b["Type"]) return a["Type"].get<std::string>() < b["Type"].get<std::string>();
  return a.value("SetIdentifier", "") < b.value("SetIdentifier", "");
}

}  // namespace

Response ChangeResourceRecordSets(ServiceContext& ctx, const std::string& zone_id) {
  Json zone = LoadZone(ctx, zone_id);
  pugi::xml_document body;
  pugi::xml_node batch = ParseRoute53Body(ctx, body).child("ChangeBatch");
  Json records = zone["Records"];
  int count = 0;
  for (pugi::xml_node change : batch.child("Changes").children("Change")) {
    ApplyChange(ctx, zone, records, change.child_value("Action"), RecordFromXml(change.child("ResourceRecordSet")));
    ++count;
  }
  if (count == 0) throw ApiError(400, "InvalidInput", "A change batch needs at least one Change.");
  zone["Records"] = records;
  SaveZone(ctx, zone);
  std::string change = NewChange(ctx, batch.child_value("Comment"));
  pugi::xml_document doc = Route53Document("ChangeResourceRecordSetsResponse");
  WriteChangeInfo(ctx, doc.document_element(), change);
  return Route53Response(doc);
}

Response ListResourceRecordSets(ServiceContext& ctx, const std::string& zone_id) {
  Json zone = LoadZone(ctx, zone_id);
  std::vector<Json> records(zone["Records"].begin(), zone["Records"].end());
  std::sort(records.begin(), records.end(), RecordBefore);
  std::string start_name = QueryValue(ctx, "name");
  std::string start_type = QueryValue(ctx, "type");
  std::string start_identifier = QueryValue(ctx, "identifier");
  int max_items = MaxItems(ctx, kDefaultRecordMaxItems);
  auto it = records.begin();
  if (!start_name.empty()) {
    Json start{{"Name", CanonicalDnsName(start_name)}, {"Type", start_type}};
    if (!start_identifier.empty()) start["SetIdentifier"] = start_identifier;
    it = std::find_if(records.begin(), records.end(), [&](const Json& r) { return !RecordBefore(r, start); });
  }
  pugi::xml_document doc = Route53Document("ListResourceRecordSetsResponse");
  pugi::xml_node root = doc.document_element();
  pugi::xml_node list = AddChild(root, "ResourceRecordSets");
  for (int n = 0; it != records.end() && n < max_items; ++it, ++n) WriteRecord(list, *it);
  AddBool(root, "IsTruncated", it != records.end());
  if (it != records.end()) {
    AddText(root, "NextRecordName", (*it)["Name"]);
    AddText(root, "NextRecordType", (*it)["Type"]);
    if (it->contains("SetIdentifier")) AddText(root, "NextRecordIdentifier", (*it)["SetIdentifier"]);
  }
  AddText(root, "MaxItems", std::to_string(max_items));
  return Route53Response(doc);
}

}  // namespace strata::sandbox::route53
