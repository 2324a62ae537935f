// aws_route53_zone: a Route 53 hosted zone, with Terraform's attributes. The id is the zone id
// without "/hostedzone/". CreateHostedZone takes the create's idempotency token as its
// CallerReference: a create sent again after a crash is refused with HostedZoneAlreadyExists,
// and the zone holding that reference is the one the first create made. A zone is created
// public, or private to its first vpc block; its comment, tags and further VPC associations
// change in place (a zone cannot turn from public to private or back: that replaces it). Delete
// refuses a zone holding records (HostedZoneNotEmpty) unless force_destroy, which deletes
// every record set but the apex SOA and NS first.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/route53/route53_api.h"
#include "providers/aws/services/route53/route53_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kDefaultZoneComment = "Managed by Terraform";
constexpr size_t kMaxCallerReference = 128;
constexpr size_t kChangesPerBatch = 100;

//! The zone found by name whose CallerReference is `reference` (ListHostedZonesByName);
//! "" when there is none.
Result<std::string> ZoneIdByCallerReference(const AwsSession& session, const OperationContext& ctx,
                                            const std::string& name, const std::string& reference) {
  RestXmlRequest call;
  call.path = Route53Path({"hostedzonesbyname"});
  call.query = {{"dnsname", name}};
  Result<XmlResponse> listed = CallRoute53(session, ctx, "ListHostedZonesByName", call);
  if (!listed.ok()) return listed.error();
  for (pugi::xml_node zone : listed->result.child("HostedZones").children("HostedZone")) {
    if (NormalizeDnsName(zone.child_value("Name")) != NormalizeDnsName(name)) break;
    if (zone.child_value("CallerReference") == reference) return BareRoute53Id(zone.child_value("Id"));
  }
  return std::string();
}

class AwsRoute53Zone final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_route53_zone",
                         {{"name", Required("string", true)},
                          {"comment", OptionalComputed("string")},
                          {"delegation_set_id", Optional("string", true)},
                          {"force_destroy", Optional("bool")},
                          {"vpc", Optional("set(object({vpc_id=string, vpc_region=optional(string)}))")},
                          {"tags", Optional("map(string)")},
                          {"tags_all", Computed("map(string)")},
                          {"zone_id", Computed("string")},
                          {"arn", Computed("string")},
                          {"name_servers", Computed("list(string)")},
                          {"primary_name_server", Computed("string")}});
  }

  //! CreateHostedZone's CallerReference is the idempotency token (see the top).
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  std::vector<std::string> RecoveryKey() const override { return {"name"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    std::string reference = CallerReference(ctx);
    pugi::xml_document body = NewXmlBody("CreateHostedZoneRequest", kRoute53Xmlns);
    pugi::xml_node root = body.document_element();
    root.append_child("Name").text() = name.c_str();
    root.append_child("CallerReference").text() = reference.c_str();
    ValueList vpcs = Blocks(planned, "vpc");
    if (!vpcs.empty()) {
      pugi::xml_node vpc = root.append_child("VPC");
      vpc.append_child("VPCRegion").text() = GetString(vpcs[0], "vpc_region", session_->Region()).c_str();
      vpc.append_child("VPCId").text() = GetString(vpcs[0], "vpc_id").c_str();
    }
    pugi::xml_node config = root.append_child("HostedZoneConfig");
    config.append_child("Comment").text() = GetString(planned, "comment", kDefaultZoneComment).c_str();
    if (!vpcs.empty()) config.append_child("PrivateZone").text() = "true";
    std::string delegation = GetString(planned, "delegation_set_id");
    if (!delegation.empty()) root.append_child("DelegationSetId").text() = delegation.c_str();
    RestXmlRequest call;
    call.method = "POST";
    call.path = Route53Path({"hostedzone"});
    call.body = XmlBodyText(body);
    Result<XmlResponse> created = CallRoute53(*session_, ctx, "CreateHostedZone", call);
    std::string id, change;
    if (created.ok()) {
      id = BareRoute53Id(XmlText(created->result, "HostedZone/Id"));
      change = XmlText(created->result, "ChangeInfo/Id");
    } else if (created.error().code == "HostedZoneAlreadyExists" && !ctx.idempotency_token.empty()) {
      // This create's reference: an earlier attempt (or a run that crashed) made the zone.
      Result<std::string> found = ZoneIdByCallerReference(*session_, ctx, name, reference);
      if (!found.ok()) return {Value(), AwsErrorDiag("ListHostedZonesByName", found.error())};
      id = *found;
    }
    if (id.empty()) return CreateFailed("CreateHostedZone", created.error());
    Diagnostics diags = WaitForRoute53Change(*session_, ctx, change);
    if (!diags.HasErrors()) diags = UpdateTags(ctx, id, {}, WantedTags(planned));
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  //! A destroy cannot resend CreateHostedZone: it looks for the zone holding the reference.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    if (ctx.idempotency_token.empty()) return {Value(), true, {}};
    Result<std::string> found = ZoneIdByCallerReference(*session_, ctx, GetString(planned, "name"), CallerReference(ctx));
    if (!found.ok()) return {Value(), false, AwsErrorDiag("ListHostedZonesByName", found.error())};
    if (found->empty()) return {Value(), true, {}};
    return ReadZone(ctx, *found, planned);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadZone(ctx, GetString(prior, "id"), prior);
  }

  //! A public zone cannot become private or the other way round (Terraform replaces it).
  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    PlanResult result = AwsResourceType::Plan(ctx, prior, proposed, config);
    if (prior.IsNull() || result.planned.IsNull() || !result.requires_replace.empty()) return result;
    if (Blocks(prior, "vpc").empty() == Blocks(result.planned, "vpc").empty()) return result;
    PlanResult replace = AwsResourceType::Plan(ctx, Value(), proposed, config);
    replace.requires_replace = {AttrPath::Of("vpc")};
    return replace;
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    Diagnostics diags = UpdateVpcs(ctx, id, Blocks(prior, "vpc"), Blocks(planned, "vpc"));
    std::string comment = GetString(planned, "comment", kDefaultZoneComment);
    if (!diags.HasErrors() && comment != GetString(prior, "comment")) {
      pugi::xml_document body = NewXmlBody("UpdateHostedZoneCommentRequest", kRoute53Xmlns);
      body.document_element().append_child("Comment").text() = comment.c_str();
      RestXmlRequest call;
      call.method = "POST";
      call.path = Route53Path({"hostedzone", id});
      call.body = XmlBodyText(body);
      Result<XmlResponse> done = CallRoute53(*session_, ctx, "UpdateHostedZoneComment", call);
      if (!done.ok()) diags = AwsErrorDiag("UpdateHostedZoneComment", done.error());
    }
    if (!diags.HasErrors()) diags = UpdateTags(ctx, id, GetStringMap(prior, "tags_all"), WantedTags(planned));
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    if (GetBool(prior, "force_destroy", false)) {
      Diagnostics emptied = DeleteAllRecords(ctx, id);
      if (emptied.HasErrors()) return {emptied};
    }
    RestXmlRequest call;
    call.method = "DELETE";
    call.path = Route53Path({"hostedzone", id});
    Result<XmlResponse> done = CallRoute53(*session_, ctx, "DeleteHostedZone", call);
    if (done.ok() || done.error().code == kNoSuchHostedZone) return {};
    Diagnostics diags = AwsErrorDiag("DeleteHostedZone", done.error());
    if (done.error().code == "HostedZoneNotEmpty") {
      diags.Error("Hosted zone " + id + " is not empty",
                  "It holds record sets besides its SOA and NS. Delete them (their aws_route53_record resources), "
                  "or set force_destroy = true on " + ctx.address + " to delete them with the zone.");
    }
    return {diags};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, BareRoute53Id(id));
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    Value name = Get(out, "name");
    if (name.IsString()) out = With(out, "name", Value::String(NormalizeDnsName(name.AsString())));
    if (Get(out, "comment").IsNull()) out = With(out, "comment", Value::String(kDefaultZoneComment));
    if (Get(out, "force_destroy").IsNull()) out = With(out, "force_destroy", Value::Bool(false));
    // vpc_region defaults to the provider's region (Terraform: optional and computed).
    ValueList vpcs = Blocks(out, "vpc");
    if (!vpcs.empty() && session_->Configured()) {
      for (Value& vpc : vpcs)
        if (Get(vpc, "vpc_region").IsNull()) vpc = With(vpc, "vpc_region", Value::String(session_->Region()));
      out = With(out, "vpc", Value::Set(std::move(vpcs)));
    }
    return out;
  }

 private:
  //! The create's CallerReference: its idempotency token (at most 128 characters), or the
  //! time when there is none.
  static std::string CallerReference(const OperationContext& ctx) {
    if (!ctx.idempotency_token.empty()) return ctx.idempotency_token.substr(0, kMaxCallerReference);
    return UniqueName("strata-", ctx);
  }

  //! Associates the VPCs `to` adds, then disassociates those it drops (a private zone keeps
  //! one VPC at all times), each change waited on until INSYNC.
  Diagnostics UpdateVpcs(const OperationContext& ctx, const std::string& id, const ValueList& from, const ValueList& to) {
    auto has = [](const ValueList& list, const Value& vpc) {
      for (const Value& v : list)
        if (GetString(v, "vpc_id") == GetString(vpc, "vpc_id")) return true;
      return false;
    };
    auto call = [&](const char* operation, const char* action, const char* root, const Value& vpc) -> Diagnostics {
      pugi::xml_document body = NewXmlBody(root, kRoute53Xmlns);
      pugi::xml_node v = body.document_element().append_child("VPC");
      v.append_child("VPCRegion").text() = GetString(vpc, "vpc_region", session_->Region()).c_str();
      v.append_child("VPCId").text() = GetString(vpc, "vpc_id").c_str();
      RestXmlRequest request;
      request.method = "POST";
      request.path = Route53Path({"hostedzone", id, action});
      request.body = XmlBodyText(body);
      Result<XmlResponse> done = CallRoute53(*session_, ctx, operation, request);
      if (!done.ok()) return AwsErrorDiag(operation, done.error());
      return WaitForRoute53Change(*session_, ctx, XmlText(done->result, "ChangeInfo/Id"));
    };
    for (const Value& vpc : to) {
      if (has(from, vpc)) continue;
      Diagnostics diags = call("AssociateVPCWithHostedZone", "associatevpc", "AssociateVPCWithHostedZoneRequest", vpc);
      if (diags.HasErrors()) return diags;
    }
    for (const Value& vpc : from) {
      if (has(to, vpc)) continue;
      Diagnostics diags = call("DisassociateVPCFromHostedZone", "disassociatevpc", "DisassociateVPCFromHostedZoneRequest", vpc);
      if (diags.HasErrors()) return diags;
    }
    return {};
  }

  Diagnostics UpdateTags(const OperationContext& ctx, const std::string& id, const TagMap& from, const TagMap& to) {
    TagMap added = ChangedTags(from, to);
    std::vector<std::string> removed = RemovedTagKeys(from, to);
    if (added.empty() && removed.empty()) return {};
    pugi::xml_document body = NewXmlBody("ChangeTagsForResourceRequest", kRoute53Xmlns);
    pugi::xml_node root = body.document_element();
    if (!added.empty()) {
      pugi::xml_node tags = root.append_child("AddTags");
      for (const auto& [key, value] : added) {
        pugi::xml_node tag = tags.append_child("Tag");
        tag.append_child("Key").text() = key.c_str();
        tag.append_child("Value").text() = value.c_str();
      }
    }
    if (!removed.empty()) {
      pugi::xml_node keys = root.append_child("RemoveTagKeys");
      for (const std::string& key : removed) keys.append_child("Key").text() = key.c_str();
    }
    RestXmlRequest call;
    call.method = "POST";
    call.path = Route53Path({"tags", "hostedzone", id});
    call.body = XmlBodyText(body);
    Result<XmlResponse> done = CallRoute53(*session_, ctx, "ChangeTagsForResource", call);
    return done.ok() ? Diagnostics{} : AwsErrorDiag("ChangeTagsForResource", done.error());
  }

  //! force_destroy: every record set but the apex SOA and NS, deleted in batches.
  Diagnostics DeleteAllRecords(const OperationContext& ctx, const std::string& id) {
    for (;;) {
      RestXmlRequest get;
      get.path = Route53Path({"hostedzone", id});
      Result<XmlResponse> zone = CallRoute53(*session_, ctx, "GetHostedZone", get);
      if (!zone.ok()) return zone.error().code == kNoSuchHostedZone ? Diagnostics{} : AwsErrorDiag("GetHostedZone", zone.error());
      std::string apex = XmlText(zone->result, "HostedZone/Name");
      RestXmlRequest list;
      list.path = Route53Path({"hostedzone", id, "rrset"});
      Result<XmlResponse> listed = CallRoute53(*session_, ctx, "ListResourceRecordSets", list);
      if (!listed.ok()) return AwsErrorDiag("ListResourceRecordSets", listed.error());
      pugi::xml_document body = NewXmlBody("ChangeResourceRecordSetsRequest", kRoute53Xmlns);
      pugi::xml_node changes = body.document_element().append_child("ChangeBatch").append_child("Changes");
      size_t count = 0;
      for (pugi::xml_node set : listed->result.child("ResourceRecordSets").children("ResourceRecordSet")) {
        std::string type = set.child_value("Type");
        if (NormalizeDnsName(set.child_value("Name")) == NormalizeDnsName(apex) && (type == "SOA" || type == "NS")) continue;
        pugi::xml_node change = changes.append_child("Change");
        change.append_child("Action").text() = "DELETE";
        change.append_copy(set);
        if (++count == kChangesPerBatch) break;
      }
      if (count == 0) return {};
      RestXmlRequest call;
      call.method = "POST";
      call.path = Route53Path({"hostedzone", id, "rrset"}) + "/";
      call.body = XmlBodyText(body);
      Result<XmlResponse> done = CallRoute53(*session_, ctx, "ChangeResourceRecordSets", call);
      if (!done.ok()) return AwsErrorDiag("ChangeResourceRecordSets", done.error());
    }
  }

  ReadResult ReadZone(const OperationContext& ctx, const std::string& id, const Value& prior) {
    RestXmlRequest get;
    get.path = Route53Path({"hostedzone", id});
    Result<XmlResponse> got = CallRoute53(*session_, ctx, "GetHostedZone", get);
    if (!got.ok()) {
      if (got.error().code == kNoSuchHostedZone) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetHostedZone", got.error())};
    }
    pugi::xml_node zone = got->result.child("HostedZone");
    std::string name = zone.child_value("Name");
    std::vector<std::string> servers;
    for (pugi::xml_node server : got->result.child("DelegationSet").child("NameServers").children("NameServer"))
      servers.push_back(server.text().as_string());
    ValueList vpcs;
    for (pugi::xml_node vpc : got->result.child("VPCs").children("VPC")) {
      vpcs.push_back(Value::Object({{"vpc_id", Value::String(vpc.child_value("VPCId"))},
                                    {"vpc_region", Value::String(vpc.child_value("VPCRegion"))}}));
    }
    // The apex NS (a private zone's name servers) and SOA (the primary name server).
    RestXmlRequest list;
    list.path = Route53Path({"hostedzone", id, "rrset"});
    list.query = {{"name", name}, {"type", "NS"}, {"maxitems", "2"}};
    Result<XmlResponse> apex = CallRoute53(*session_, ctx, "ListResourceRecordSets", list);
    if (!apex.ok()) return {Value(), false, AwsErrorDiag("ListResourceRecordSets", apex.error())};
    std::string primary;
    for (pugi::xml_node set : apex->result.child("ResourceRecordSets").children("ResourceRecordSet")) {
      std::string type = set.child_value("Type");
      std::string first = XmlText(set, "ResourceRecords/ResourceRecord/Value");
      if (type == "SOA") primary = NormalizeDnsName(first.substr(0, first.find(' ')));
      if (type == "NS" && servers.empty()) {
        for (pugi::xml_node value : set.child("ResourceRecords").children("ResourceRecord"))
          servers.push_back(NormalizeDnsName(value.child_value("Value")));
      }
    }
    RestXmlRequest tag_call;
    tag_call.path = Route53Path({"tags", "hostedzone", id});
    Result<XmlResponse> tagged = CallRoute53(*session_, ctx, "ListTagsForResource", tag_call);
    if (!tagged.ok()) return {Value(), false, AwsErrorDiag("ListTagsForResource", tagged.error())};
    TagMap tags = ReadTagList(tagged->result.child("ResourceTagSet").child("Tags"), "Tag", "Key", "Value");
    Value force_destroy = Get(prior, "force_destroy");
    return {Value::Object({{"id", Value::String(id)},
                           {"zone_id", Value::String(id)},
                           {"name", Value::String(NormalizeDnsName(name))},
                           {"comment", Value::String(XmlText(zone, "Config/Comment"))},
                           {"delegation_set_id", Get(prior, "delegation_set_id")},
                           {"force_destroy", force_destroy.IsBool() ? force_destroy : Value::Bool(false)},
                           {"vpc", vpcs.empty() ? Value() : Value::Set(std::move(vpcs))},
                           {"arn", Value::String("arn:" + PartitionOf(session_->Region()) + ":route53:::hostedzone/" + id)},
                           {"name_servers", StringListValue(servers)},
                           {"primary_name_server", Value::String(primary)},
                           {"tags", TagsForState(tags, session_->default_tags, Get(prior, "tags"))},
                           {"tags_all", TagsValue(tags)}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsRoute53Zone(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRoute53Zone>(std::move(session));
}

}  // namespace strata::aws
