// data "aws_route53_zone": one hosted zone, by zone_id (GetHostedZone) or by name and
// private_zone (and vpc_id, tags for private zones), matched as Terraform matches: names
// compared in lower case without the trailing dot; none or several matches are errors.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/route53/route53_api.h"
#include "providers/aws/services/route53/route53_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsRoute53ZoneData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_route53_zone",
                                     {{"zone_id", OptionalComputed("string")},
                                      {"name", OptionalComputed("string")},
                                      {"private_zone", Optional("bool")},
                                      {"vpc_id", OptionalComputed("string")},
                                      {"tags", OptionalComputed("map(string)")},
                                      {"arn", Computed("string")},
                                      {"caller_reference", Computed("string")},
                                      {"comment", Computed("string")},
                                      {"name_servers", Computed("list(string)")},
                                      {"primary_name_server", Computed("string")},
                                      {"resource_record_set_count", Computed("number")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    std::string zone_id = BareRoute53Id(GetString(config, "zone_id"));
    std::string name = NormalizeDnsName(GetString(config, "name"));
    if (zone_id.empty() == name.empty())
      return {Value(), false, Error("Invalid aws_route53_zone lookup", "Set exactly one of \"zone_id\" and \"name\".")};
    if (zone_id.empty()) {
      Result<std::string> found = FindByName(ctx, name, config);
      if (!found.ok()) return {Value(), false, AwsErrorDiag("ListHostedZones", found.error())};
      if (found->empty())
        return {Value(), false, Error("No matching Route 53 Hosted Zone found", "No " + std::string(GetBool(config, "private_zone", false) ? "private" : "public") + " hosted zone named \"" + name + "\" in this account.")};
      if (*found == "*")
        return {Value(), false, Error("Multiple Route 53 Hosted Zones matched", "Several hosted zones are named \"" + name + "\": look the zone up by zone_id, or narrow it with vpc_id or tags.")};
      zone_id = *found;
    }
    return Describe(ctx, zone_id, config);
  }

 private:
  //! The id of the one zone matching, "" when none, "*" when several.
  Result<std::string> FindByName(const OperationContext& ctx, const std::string& name, const Value& config) {
    bool private_zone = GetBool(config, "private_zone", false);
    std::string vpc_id = GetString(config, "vpc_id");
    TagMap wanted_tags = GetStringMap(config, "tags");
    std::string match, marker;
    do {
      RestXmlRequest call;
      call.path = Route53Path({"hostedzone"});
      if (!marker.empty()) call.query = {{"marker", marker}};
      Result<XmlResponse> listed = CallRoute53(*session_, ctx, "ListHostedZones", call);
      if (!listed.ok()) return listed.error();
      for (pugi::xml_node zone : listed->result.child("HostedZones").children("HostedZone")) {
        if (NormalizeDnsName(zone.child_value("Name")) != name) continue;
        if ((XmlText(zone, "Config/PrivateZone") == "true") != private_zone) continue;
        std::string id = BareRoute53Id(zone.child_value("Id"));
        if (!vpc_id.empty() || !wanted_tags.empty()) {
          Result<bool> fits = Fits(ctx, id, vpc_id, wanted_tags);
          if (!fits.ok()) return fits.error();
          if (!*fits) continue;
        }
        if (!match.empty()) return std::string("*");
        match = id;
      }
      marker = XmlText(listed->result, "IsTruncated") == "true" ? XmlText(listed->result, "NextMarker") : "";
    } while (!marker.empty());
    return match;
  }

  Result<bool> Fits(const OperationContext& ctx, const std::string& id, const std::string& vpc_id, const TagMap& wanted) {
    if (!vpc_id.empty()) {
      RestXmlRequest get;
      get.path = Route53Path({"hostedzone", id});
      Result<XmlResponse> got = CallRoute53(*session_, ctx, "GetHostedZone", get);
      if (!got.ok()) return got.error();
      bool found = false;
      for (pugi::xml_node vpc : got->result.child("VPCs").children("VPC")) found = found || vpc.child_value("VPCId") == vpc_id;
      if (!found) return false;
    }
    if (wanted.empty()) return true;
    Result<TagMap> tags = Tags(ctx, id);
    if (!tags.ok()) return tags.error();
    for (const auto& [key, value] : wanted) {
      auto it = tags->find(key);
      if (it == tags->end() || it->second != value) return false;
    }
    return true;
  }

  Result<TagMap> Tags(const OperationContext& ctx, const std::string& id) {
    RestXmlRequest call;
    call.path = Route53Path({"tags", "hostedzone", id});
    Result<XmlResponse> tagged = CallRoute53(*session_, ctx, "ListTagsForResource", call);
    if (!tagged.ok()) return tagged.error();
    return ReadTagList(tagged->result.child("ResourceTagSet").child("Tags"), "Tag", "Key", "Value");
  }

  ReadResult Describe(const OperationContext& ctx, const std::string& id, const Value& config) {
    RestXmlRequest get;
    get.path = Route53Path({"hostedzone", id});
    Result<XmlResponse> got = CallRoute53(*session_, ctx, "GetHostedZone", get);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("GetHostedZone", got.error())};
    pugi::xml_node zone = got->result.child("HostedZone");
    std::vector<std::string> servers;
    for (pugi::xml_node server : got->result.child("DelegationSet").child("NameServers").children("NameServer"))
      servers.push_back(server.text().as_string());
    std::string vpc_id = GetString(config, "vpc_id");
    if (vpc_id.empty()) vpc_id = XmlText(got->result, "VPCs/VPC/VPCId");
    Result<TagMap> tags = Tags(ctx, id);
    if (!tags.ok()) return {Value(), false, AwsErrorDiag("ListTagsForResource", tags.error())};
    RestXmlRequest list;
    list.path = Route53Path({"hostedzone", id, "rrset"});
    list.query = {{"name", zone.child_value("Name")}, {"type", "SOA"}, {"maxitems", "1"}};
    Result<XmlResponse> soa = CallRoute53(*session_, ctx, "ListResourceRecordSets", list);
    if (!soa.ok()) return {Value(), false, AwsErrorDiag("ListResourceRecordSets", soa.error())};
    std::string first = XmlText(soa->result, "ResourceRecordSets/ResourceRecordSet/ResourceRecords/ResourceRecord/Value");
    return {Value::Object({{"id", Value::String(id)},
                           {"zone_id", Value::String(id)},
                           {"name", Value::String(NormalizeDnsName(zone.child_value("Name")))},
                           {"private_zone", Value::Bool(XmlText(zone, "Config/PrivateZone") == "true")},
                           {"vpc_id", vpc_id.empty() ? Value() : Value::String(vpc_id)},
                           {"tags", TagsValue(*tags)},
                           {"arn", Value::String("arn:" + PartitionOf(session_->Region()) + ":route53:::hostedzone/" + id)},
                           {"caller_reference", Value::String(zone.child_value("CallerReference"))},
                           {"comment", Value::String(XmlText(zone, "Config/Comment"))},
                           {"name_servers", StringListValue(servers)},
                           {"primary_name_server", Value::String(NormalizeDnsName(first.substr(0, first.find(' '))))},
                           {"resource_record_set_count", Value::Number(zone.child("ResourceRecordSetCount").text().as_double())}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsRoute53ZoneData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRoute53ZoneData>(std::move(session));
}

}  // namespace strata::aws
