// aws_route53_record: one record set of a hosted zone, with Terraform's attributes and id
// ("<zone id>_<name>_<type>[_<set identifier>]"). A create is CREATE (refused when the set
// exists) unless allow_overwrite, which makes it UPSERT; an update is UPSERT, or DELETE of the
// old set and CREATE of the new one when the type or set identifier changes; every change is
// waited on until INSYNC. Names are kept as Terraform keeps them (lower case, no trailing dot,
// '*' rather than "\052"), relative names completed with the zone's name for the API, so
// Route 53's spelling never shows as a diff. The (zone, name, type, set identifier) key is
// the natural key: a set holding the planned values is what an interrupted create made.

#include <algorithm>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/route53/route53_api.h"
#include "providers/aws/services/route53/route53_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kRecordTypes[] = {"A",   "AAAA", "CAA", "CNAME", "DS",  "HTTPS", "MX",  "NAPTR",
                                        "NS",  "PTR",  "SOA", "SPF",   "SRV", "SSHFP", "SVCB", "TLSA", "TXT"};

bool IsRecordType(const std::string& type) {
  return std::any_of(std::begin(kRecordTypes), std::end(kRecordTypes), [&](const char* t) { return type == t; });
}

bool IsQuotedType(const std::string& type) { return type == "TXT" || type == "SPF"; }

//! The record's name as the API wants it: `name` when it lies in the zone, else name.zone.
std::string RecordFqdn(const std::string& name, const std::string& zone_name) {
  std::string n = NormalizeDnsName(name), zone = NormalizeDnsName(zone_name);
  if (zone.empty() || n == zone || (n.size() > zone.size() && n.compare(n.size() - zone.size() - 1, std::string::npos, "." + zone) == 0))
    return n;
  return n.empty() ? zone : n + "." + zone;
}

//! TXT and SPF values go quoted to the API and come back unquoted to state (Terraform's rule).
std::string RecordValueForApi(const std::string& type, const std::string& value) {
  if (!IsQuotedType(type) || (value.size() >= 2 && value.front() == '"' && value.back() == '"')) return value;
  return "\"" + value + "\"";
}

std::string RecordValueForState(const std::string& type, const std::string& value) {
  if (IsQuotedType(type) && value.size() >= 2 && value.front() == '"' && value.back() == '"')
    return value.substr(1, value.size() - 2);
  return value;
}

struct RecordKey {
  std::string zone_id, name, type, set_identifier;
};

//! Parses "<zone>_<name>_<type>[_<set identifier>]"; names may hold '_' ("_acme-challenge").
std::optional<RecordKey> ParseRecordId(const std::string& id) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t us = id.find('_'); us != std::string::npos; us = id.find('_', start)) {
    parts.push_back(id.substr(start, us - start));
    start = us + 1;
  }
  parts.push_back(id.substr(start));
  for (size_t i = parts.size(); i-- > 2;) {
    if (!IsRecordType(parts[i])) continue;
    RecordKey key;
    key.zone_id = parts[0];
    for (size_t j = 1; j < i; ++j) key.name += (j > 1 ? "_" : "") + parts[j];
    key.type = parts[i];
    for (size_t j = i + 1; j < parts.size(); ++j) key.set_identifier += (j > i + 1 ? "_" : "") + parts[j];
    return key;
  }
  return std::nullopt;
}

class AwsRoute53Record final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "aws_route53_record",
        {{"zone_id", Required("string", true)},
         {"name", Required("string", true)},
         {"type", Required("string")},
         {"ttl", Optional("number")},
         {"records", Optional("set(string)")},
         {"set_identifier", Optional("string")},
         {"health_check_id", Optional("string")},
         {"alias", Optional("list(object({name=string, zone_id=string, evaluate_target_health=bool}))")},
         {"weighted_routing_policy", Optional("list(object({weight=number}))")},
         {"allow_overwrite", OptionalComputed("bool")},
         {"fqdn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"zone_id", "name", "type", "set_identifier"}; }

  Diagnostics Validate(const Value& config) const override {
    Value type = Get(config, "type");
    if (type.IsString() && !IsRecordType(type.AsString()))
      return Error("Invalid record type", "\"" + type.AsString() + "\" is not a Route 53 record type (A, AAAA, CNAME, MX, TXT, ...).");
    bool has_alias = !Blocks(config, "alias").empty();
    Value records = Get(config, "records");
    if (has_alias && (!Get(config, "ttl").IsNull() || (!records.IsNull() && records.IsKnown())))
      return Error("Conflicting record arguments", "An alias record takes no \"ttl\" or \"records\".");
    if (!has_alias && Get(config, "records").IsNull() && !Get(config, "ttl").IsNull())
      return Error("Missing records", "A record with a \"ttl\" needs \"records\" (or an \"alias\" block instead of both).");
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    Result<std::string> zone_name = ZoneName(ctx, GetString(planned, "zone_id"));
    if (!zone_name.ok()) return {Value(), AwsErrorDiag("GetHostedZone", zone_name.error())};
    std::string action = GetBool(planned, "allow_overwrite", false) ? "UPSERT" : "CREATE";
    Diagnostics diags = Change(ctx, GetString(planned, "zone_id"), *zone_name, {{action, planned}});
    if (diags.HasErrors()) return {Value(), diags};
    return ReadAfterWrite(ctx, planned, RecordId(planned), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    Value known = prior;
    if (GetString(prior, "zone_id").empty() || GetString(prior, "type").empty()) {
      std::optional<RecordKey> key = ParseRecordId(GetString(prior, "id"));
      if (!key)
        return {Value(), false, Error("Invalid Route 53 record id", "\"" + GetString(prior, "id") + "\" is not <zone id>_<name>_<type>[_<set identifier>] (e.g. Z123_www.example.com_A).")};
      known = With(With(With(known, "zone_id", Value::String(key->zone_id)), "name", Value::String(key->name)), "type", Value::String(key->type));
      if (!key->set_identifier.empty()) known = With(known, "set_identifier", Value::String(key->set_identifier));
    }
    return ReadRecord(ctx, known);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string zone_id = GetString(planned, "zone_id");
    Result<std::string> zone_name = ZoneName(ctx, zone_id);
    if (!zone_name.ok()) return {prior, AwsErrorDiag("GetHostedZone", zone_name.error())};
    std::vector<std::pair<std::string, Value>> changes;
    bool key_changed = GetString(prior, "type") != GetString(planned, "type") ||
                       GetString(prior, "set_identifier") != GetString(planned, "set_identifier");
    if (key_changed) {
      changes.emplace_back("DELETE", prior);
      changes.emplace_back("CREATE", planned);
    } else {
      changes.emplace_back("UPSERT", planned);
    }
    Diagnostics diags = Change(ctx, zone_id, *zone_name, changes);
    return ReadAfterWrite(ctx, planned, RecordId(planned), diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    // Delete exactly what is there (Route 53 refuses a DELETE whose values differ).
    ReadResult current = ReadRecord(ctx, prior);
    if (current.gone) return {};
    if (current.diags.HasErrors()) return {current.diags};
    Result<std::string> zone_name = ZoneName(ctx, GetString(prior, "zone_id"));
    if (!zone_name.ok()) return {zone_name.error().code == kNoSuchHostedZone ? Diagnostics{} : AwsErrorDiag("GetHostedZone", zone_name.error())};
    Diagnostics diags = Change(ctx, GetString(prior, "zone_id"), *zone_name, {{"DELETE", current.state}});
    return {diags};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    ReadResult found = ReadRecord(ctx, planned);
    if (found.gone || found.diags.HasErrors()) return found;
    if (GetBool(planned, "allow_overwrite", false) || SameValues(found.state, planned)) return found;
    return NotCreatedByThisApply(ctx, "Route 53 record set \"" + GetString(found.state, "fqdn") + "\" (" + GetString(planned, "type") + ")",
                                 "it holds other values", RecordId(planned));
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    Value name = Get(out, "name");
    if (name.IsString()) out = With(out, "name", Value::String(NormalizeDnsName(name.AsString())));
    ValueList aliases = Blocks(out, "alias");
    if (!aliases.empty() && Get(aliases[0], "name").IsString()) {
      aliases[0] = With(aliases[0], "name", Value::String(NormalizeDnsName(Get(aliases[0], "name").AsString())));
      out = With(out, "alias", Value::List(aliases));
    }
    if (Get(out, "allow_overwrite").IsNull()) out = With(out, "allow_overwrite", Value::Bool(false));
    return out;
  }

 private:
  static std::string RecordId(const Value& v) {
    std::string id = GetString(v, "zone_id") + "_" + NormalizeDnsName(GetString(v, "name")) + "_" + GetString(v, "type");
    std::string set_identifier = GetString(v, "set_identifier");
    return set_identifier.empty() ? id : id + "_" + set_identifier;
  }

  static bool SameValues(const Value& found, const Value& planned) {
    for (const char* name : {"ttl", "records", "alias", "set_identifier"})
      if (!Get(found, name).Equals(Get(planned, name)) && Get(planned, name).IsKnown()) return false;
    return true;
  }

  Result<std::string> ZoneName(const OperationContext& ctx, const std::string& zone_id) {
    RestXmlRequest call;
    call.path = Route53Path({"hostedzone", BareRoute53Id(zone_id)});
    Result<XmlResponse> got = CallRoute53(*session_, ctx, "GetHostedZone", call);
    if (!got.ok()) return got.error();
    return XmlText(got->result, "HostedZone/Name");
  }

  //! Appends the <ResourceRecordSet> of `v` (planned or read state) in zone `zone_name`.
  static void AppendSet(pugi::xml_node parent, const Value& v, const std::string& zone_name) {
    pugi::xml_node set = parent.append_child("ResourceRecordSet");
    std::string type = GetString(v, "type");
    set.append_child("Name").text() = RecordFqdn(GetString(v, "name"), zone_name).c_str();
    set.append_child("Type").text() = type.c_str();
    std::string set_identifier = GetString(v, "set_identifier");
    if (!set_identifier.empty()) set.append_child("SetIdentifier").text() = set_identifier.c_str();
    Value weighted = FirstBlock(v, "weighted_routing_policy");
    if (auto weight = GetNumber(weighted, "weight")) set.append_child("Weight").text() = static_cast<long long>(*weight);
    Value alias = FirstBlock(v, "alias");
    if (alias.IsNull()) {
      if (auto ttl = GetNumber(v, "ttl")) set.append_child("TTL").text() = static_cast<long long>(*ttl);
      pugi::xml_node records = set.append_child("ResourceRecords");
      for (const std::string& value : GetStringList(v, "records"))
        records.append_child("ResourceRecord").append_child("Value").text() = RecordValueForApi(type, value).c_str();
    } else {
      pugi::xml_node target = set.append_child("AliasTarget");
      target.append_child("HostedZoneId").text() = GetString(alias, "zone_id").c_str();
      target.append_child("DNSName").text() = GetString(alias, "name").c_str();
      target.append_child("EvaluateTargetHealth").text() = GetBool(alias, "evaluate_target_health", false) ? "true" : "false";
    }
    std::string health_check = GetString(v, "health_check_id");
    if (!health_check.empty()) set.append_child("HealthCheckId").text() = health_check.c_str();
  }

  //! One ChangeResourceRecordSets call, waited on until INSYNC.
  Diagnostics Change(const OperationContext& ctx, const std::string& zone_id, const std::string& zone_name,
                     const std::vector<std::pair<std::string, Value>>& changes) {
    pugi::xml_document body = NewXmlBody("ChangeResourceRecordSetsRequest", kRoute53Xmlns);
    pugi::xml_node list = body.document_element().append_child("ChangeBatch").append_child("Changes");
    for (const auto& [action, set] : changes) {
      pugi::xml_node change = list.append_child("Change");
      change.append_child("Action").text() = action.c_str();
      AppendSet(change, set, zone_name);
    }
    RestXmlRequest call;
    call.method = "POST";
    call.path = Route53Path({"hostedzone", BareRoute53Id(zone_id), "rrset"}) + "/";
    call.body = XmlBodyText(body);
    Result<XmlResponse> done = CallRoute53(*session_, ctx, "ChangeResourceRecordSets", call);
    if (!done.ok()) {
      Diagnostics diags = AwsErrorDiag("ChangeResourceRecordSets", done.error());
      if (done.error().message.find("but it already exists") != std::string::npos)
        diags.Error("Record set of " + ctx.address + " already exists",
                    "Import it (strata import " + ctx.address + " <zone id>_<name>_<type>), or set allow_overwrite = true to take it over.");
      return diags;
    }
    return WaitForRoute53Change(*session_, ctx, XmlText(done->result, "ChangeInfo/Id"));
  }

  ReadResult ReadRecord(const OperationContext& ctx, const Value& prior) {
    std::string zone_id = BareRoute53Id(GetString(prior, "zone_id"));
    Result<std::string> zone_name = ZoneName(ctx, zone_id);
    if (!zone_name.ok()) {
      if (zone_name.error().code == kNoSuchHostedZone) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetHostedZone", zone_name.error())};
    }
    std::string fqdn = RecordFqdn(GetString(prior, "name"), *zone_name);
    std::string type = GetString(prior, "type");
    std::string set_identifier = GetString(prior, "set_identifier");
    RestXmlRequest call;
    call.path = Route53Path({"hostedzone", zone_id, "rrset"});
    call.query = {{"name", fqdn}, {"type", type}};
    if (!set_identifier.empty()) call.query.emplace_back("identifier", set_identifier);
    call.query.emplace_back("maxitems", "1");
    Result<XmlResponse> listed = CallRoute53(*session_, ctx, "ListResourceRecordSets", call);
    if (!listed.ok()) return {Value(), false, AwsErrorDiag("ListResourceRecordSets", listed.error())};
    pugi::xml_node set = listed->result.child("ResourceRecordSets").child("ResourceRecordSet");
    if (!set || NormalizeDnsName(set.child_value("Name")) != fqdn || set.child_value("Type") != type ||
        set.child_value("SetIdentifier") != set_identifier)
      return {Value(), true, {}};
    ValueList records;
    for (pugi::xml_node value : set.child("ResourceRecords").children("ResourceRecord"))
      records.push_back(Value::String(RecordValueForState(type, value.child_value("Value"))));
    Value alias;
    if (pugi::xml_node target = set.child("AliasTarget")) {
      alias = Value::List({Value::Object({{"name", Value::String(NormalizeDnsName(target.child_value("DNSName")))},
                                          {"zone_id", Value::String(target.child_value("HostedZoneId"))},
                                          {"evaluate_target_health", Value::Bool(std::string(target.child_value("EvaluateTargetHealth")) == "true")}})});
    }
    Value weighted;
    if (set.child("Weight"))
      weighted = Value::List({Value::Object({{"weight", Value::Number(set.child("Weight").text().as_double())}})});
    // Keep the name as written (relative or not) when it names this set.
    std::string name = GetString(prior, "name");
    if (RecordFqdn(name, *zone_name) != fqdn || name.empty()) name = fqdn;
    Value allow = Get(prior, "allow_overwrite");
    Value state = Value::Object(
        {{"id", Value::String("")},
         {"zone_id", Value::String(zone_id)},
         {"name", Value::String(NormalizeDnsName(name))},
         {"type", Value::String(type)},
         {"ttl", set.child("TTL") ? Value::Number(set.child("TTL").text().as_double()) : Value()},
         {"records", records.empty() ? Value() : Value::Set(std::move(records))},
         {"set_identifier", set_identifier.empty() ? Value() : Value::String(set_identifier)},
         {"health_check_id", set.child("HealthCheckId") ? Value::String(set.child_value("HealthCheckId")) : Value()},
         {"alias", alias},
         {"weighted_routing_policy", weighted},
         {"allow_overwrite", allow.IsBool() ? allow : Value::Bool(false)},
         {"fqdn", Value::String(fqdn)}});
    return {With(state, "id", Value::String(RecordId(state))), false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsRoute53Record(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRoute53Record>(std::move(session));
}

}  // namespace strata::aws
