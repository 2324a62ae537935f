// aws_launch_template: an EC2 launch template over CreateLaunchTemplate /
// DescribeLaunchTemplates / DescribeLaunchTemplateVersions / CreateLaunchTemplateVersion /
// ModifyLaunchTemplate / DeleteLaunchTemplate, with Terraform's attribute names. The id is the
// template's id ("lt-0123...").
//
// As in Terraform, the state shows the template's latest version: a change of any attribute
// of the template's data (description included) is an update in place that makes a new
// version, and then, with update_default_version, makes it the default (default_version
// otherwise moves only when written). Create sends the engine's idempotency token as
// ClientToken (a create re-sent after a crash is answered with the template the first one
// made; a name without `name` comes from `name_prefix` and the token, so it asks for the same
// name) and tags the template with the token, so that a destroy that meets an interrupted
// create can look for it without creating. block_device_mappings' `encrypted` and
// `delete_on_termination` are the strings "true"/"false", as Terraform has them; `user_data`
// is sent as written (base64, as Terraform takes it). `iam_instance_profile` names the
// profile by `arn` or `name`, as EC2 keeps it.

#include <cstdlib>

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kLaunchTemplatePrefix = "strata-";
// What DeleteLaunchTemplate and DescribeLaunchTemplateVersions answer for a template that
// is not there: by id, and by name (which some endpoints answer for an id too).
constexpr const char* kTemplateIdNotFound = "InvalidLaunchTemplateId.NotFound";
constexpr const char* kTemplateNameNotFound = "InvalidLaunchTemplateName.NotFoundException";

constexpr const char* kBlockDeviceMappingsType =
    "list(object({device_name=optional(string), no_device=optional(string), virtual_name=optional(string), "
    "ebs=optional(list(object({delete_on_termination=optional(string), encrypted=optional(string), "
    "iops=optional(number), kms_key_id=optional(string), snapshot_id=optional(string), throughput=optional(number), "
    "volume_size=optional(number), volume_type=optional(string)})))}))";

// The attributes that make up a version's LaunchTemplateData (and its description): a change
// to any of them is a new version.
const std::vector<std::string> kTemplateDataAttributes = {
    "description", "image_id", "instance_type", "key_name", "user_data", "vpc_security_group_ids",
    "iam_instance_profile", "block_device_mappings", "metadata_options", "tag_specifications"};

// Scalar members of the data: attribute, request parameter, answer element.
struct TemplateScalar {
  const char* attr;
  const char* param;
  const char* element;
};
constexpr TemplateScalar kTemplateScalars[] = {{"image_id", "ImageId", "imageId"},
                                               {"instance_type", "InstanceType", "instanceType"},
                                               {"key_name", "KeyName", "keyName"},
                                               {"user_data", "UserData", "userData"}};
constexpr TemplateScalar kEbsMembers[] = {{"delete_on_termination", "DeleteOnTermination", "deleteOnTermination"},
                                          {"encrypted", "Encrypted", "encrypted"},
                                          {"iops", "Iops", "iops"},
                                          {"kms_key_id", "KmsKeyId", "kmsKeyId"},
                                          {"snapshot_id", "SnapshotId", "snapshotId"},
                                          {"throughput", "Throughput", "throughput"},
                                          {"volume_size", "VolumeSize", "volumeSize"},
                                          {"volume_type", "VolumeType", "volumeType"}};
constexpr TemplateScalar kMappingMembers[] = {{"device_name", "DeviceName", "deviceName"},
                                              {"no_device", "NoDevice", "noDevice"},
                                              {"virtual_name", "VirtualName", "virtualName"}};
constexpr TemplateScalar kMetadataMembers[] = {{"http_endpoint", "HttpEndpoint", "httpEndpoint"},
                                               {"http_tokens", "HttpTokens", "httpTokens"},
                                               {"http_put_response_hop_limit", "HttpPutResponseHopLimit",
                                                "httpPutResponseHopLimit"}};
// The instance profile the instances run with (a self-managed node's role), by ARN or name.
constexpr TemplateScalar kProfileMembers[] = {{"arn", "Arn", "arn"}, {"name", "Name", "name"}};
// The members that are numbers in the schema (the rest are strings).
bool IsNumberMember(const std::string& attr) {
  return attr == "iops" || attr == "throughput" || attr == "volume_size" || attr == "http_put_response_hop_limit";
}

//! A number of an answer; null when the text is not one.
Value NumberText(const std::string& text) {
  char* end = nullptr;
  double n = std::strtod(text.c_str(), &end);
  return text.empty() || *end != '\0' ? Value() : Value::Number(n);
}

//! The account of a creator's ARN ("arn:aws:iam::<account>:root").
std::string AccountOfArn(const std::string& arn) {
  size_t at = arn.find("::");
  if (at == std::string::npos) return "";
  at += 2;
  return arn.substr(at, arn.find(':', at) - at);
}

//! Adds "<prefix><param>" for each member of `block` that is set.
template <size_t N>
void AddTemplateMembers(QueryRequest& call, const std::string& prefix, const Value& block,
                        const TemplateScalar (&members)[N]) {
  for (const TemplateScalar& m : members) {
    std::string text = GetString(block, m.attr);
    if (!text.empty()) call.Add(prefix + m.param, text);
  }
}

//! An object of `members` read from the answer element `node`: absent members are null.
template <size_t N>
Value ReadTemplateMembers(pugi::xml_node node, const TemplateScalar (&members)[N]) {
  ValueMap out;
  for (const TemplateScalar& m : members) {
    pugi::xml_node child = node.child(m.element);
    if (!child) {
      out[m.attr] = Value();
    } else if (IsNumberMember(m.attr)) {
      out[m.attr] = NumberText(child.child_value());
    } else {
      out[m.attr] = Value::String(child.child_value());
    }
  }
  return Value::Object(std::move(out));
}

//! The LaunchTemplateData parameters of `v`'s template attributes.
void AddLaunchTemplateData(QueryRequest& call, const Value& v) {
  const std::string data = "LaunchTemplateData.";
  AddTemplateMembers(call, data, v, kTemplateScalars);
  int n = 0;
  for (const std::string& group : GetStringList(v, "vpc_security_group_ids")) {
    call.Add(data + "SecurityGroupId." + std::to_string(++n), group);
  }
  Value profile = FirstBlock(v, "iam_instance_profile");
  if (!profile.IsNull()) AddTemplateMembers(call, data + "IamInstanceProfile.", profile, kProfileMembers);
  n = 0;
  for (const Value& mapping : Blocks(v, "block_device_mappings")) {
    std::string prefix = data + "BlockDeviceMapping." + std::to_string(++n) + ".";
    AddTemplateMembers(call, prefix, mapping, kMappingMembers);
    Value ebs = FirstBlock(mapping, "ebs");
    if (!ebs.IsNull()) AddTemplateMembers(call, prefix + "Ebs.", ebs, kEbsMembers);
  }
  Value metadata = FirstBlock(v, "metadata_options");
  if (!metadata.IsNull()) AddTemplateMembers(call, data + "MetadataOptions.", metadata, kMetadataMembers);
  n = 0;
  for (const Value& spec : Blocks(v, "tag_specifications")) {
    std::string prefix = data + "TagSpecification." + std::to_string(++n) + ".";
    call.Add(prefix + "ResourceType", GetString(spec, "resource_type"));
    int t = 0;
    for (const auto& [key, value] : GetStringMap(spec, "tags")) {
      std::string tag = prefix + "Tag." + std::to_string(++t);
      call.Add(tag + ".Key", key).Add(tag + ".Value", value);
    }
  }
}

//! A list read from the answer: null when empty and `prior` (the attribute's prior value) is
//! null too, so that an unwritten block does not read back as [].
Value ListOrNull(ValueList items, const Value& prior, bool as_set = false) {
  return NullIfEmptyAndUnset(as_set ? Value::Set(std::move(items)) : Value::List(std::move(items)), prior);
}

//! The template attributes of a version's <launchTemplateData>.
ValueMap ReadLaunchTemplateData(pugi::xml_node data, const Value& prior) {
  ValueMap out = ReadTemplateMembers(data, kTemplateScalars).AsMap();
  ValueList groups;
  for (pugi::xml_node g : data.child("securityGroupIdSet").children("item")) groups.push_back(Value::String(g.child_value()));
  out["vpc_security_group_ids"] = ListOrNull(std::move(groups), Get(prior, "vpc_security_group_ids"), true);
  pugi::xml_node profile = data.child("iamInstanceProfile");
  // EC2 keeps the profile as it was named (by ARN or by name) and answers that member only.
  out["iam_instance_profile"] = profile ? Value::List({ReadTemplateMembers(profile, kProfileMembers)}) : Value();
  ValueList mappings;
  for (pugi::xml_node m : data.child("blockDeviceMappingSet").children("item")) {
    ValueMap mapping = ReadTemplateMembers(m, kMappingMembers).AsMap();
    pugi::xml_node ebs = m.child("ebs");
    mapping["ebs"] = ebs ? Value::List({ReadTemplateMembers(ebs, kEbsMembers)}) : Value();
    mappings.push_back(Value::Object(std::move(mapping)));
  }
  out["block_device_mappings"] = ListOrNull(std::move(mappings), Get(prior, "block_device_mappings"));
  pugi::xml_node metadata = data.child("metadataOptions");
  out["metadata_options"] = metadata ? Value::List({ReadTemplateMembers(metadata, kMetadataMembers)}) : Value();
  ValueList specs;
  for (pugi::xml_node s : data.child("tagSpecificationSet").children("item")) {
    TagMap tags = ReadTagSet(s);
    specs.push_back(Value::Object({{"resource_type", Value::String(s.child_value("resourceType"))},
                                   {"tags", TagsValue(tags)}}));
  }
  out["tag_specifications"] = ListOrNull(std::move(specs), Get(prior, "tag_specifications"));
  return out;
}

bool TemplateDataChanged(const Value& prior, const Value& planned) {
  for (const std::string& attr : kTemplateDataAttributes) {
    if (!Get(prior, attr).Equals(Get(planned, attr))) return true;
  }
  return false;
}

class AwsLaunchTemplate final : public Ec2ResourceType {
 public:
  explicit AwsLaunchTemplate(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeLaunchTemplates", "LaunchTemplateId", "launchTemplates",
                                             kTemplateIdNotFound, "DeleteLaunchTemplate"}) {}

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "aws_launch_template",
        {{"name", OptionalComputed("string", true)},
         {"name_prefix", Optional("string", true)},
         {"description", Optional("string")},
         {"default_version", OptionalComputed("number")},
         {"update_default_version", Optional("bool")},
         {"latest_version", Computed("number")},
         {"image_id", Optional("string")},
         {"instance_type", Optional("string")},
         {"key_name", Optional("string")},
         {"user_data", Optional("string")},
         {"vpc_security_group_ids", Optional("set(string)")},
         {"iam_instance_profile", Optional("list(object({arn=optional(string), name=optional(string)}))")},
         {"block_device_mappings", Optional(kBlockDeviceMappingsType)},
         {"metadata_options",
          Optional("list(object({http_endpoint=optional(string), http_tokens=optional(string), "
                   "http_put_response_hop_limit=optional(number)}))")},
         {"tag_specifications", Optional("list(object({resource_type=optional(string), tags=optional(map(string))}))")},
         {"tags", Optional("map(string)")},
         {"tags_all", Computed("map(string)")},
         {"arn", Computed("string")}});
  }

  //! Create sends the idempotency token as ClientToken (see the top): a recovery sends it
  //! again, and EC2 answers it with the template the first create made.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  //! A destroy looks by the token tag alone.
  std::vector<std::string> RecoveryKey() const override { return {}; }

  Diagnostics Validate(const Value& config) const override {
    if (!Get(config, "default_version").IsNull() && GetBool(config, "update_default_version", false)) {
      return Error("Conflicting launch template arguments",
                   "\"default_version\" and \"update_default_version\" cannot both be set: the default version "
                   "either follows every new version or is the one written.");
    }
    if (!Get(config, "name").IsNull() && !Get(config, "name_prefix").IsNull()) {
      return Error("Conflicting launch template arguments", "\"name\" and \"name_prefix\" cannot both be set.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    // Stable across a retried create (the token is), so ClientToken can do its job.
    if (name.empty()) name = UniqueName(GetString(planned, "name_prefix", kLaunchTemplatePrefix), ctx);
    QueryRequest call = Ec2Call("CreateLaunchTemplate");
    call.Add("LaunchTemplateName", name);
    if (!ctx.idempotency_token.empty()) call.Add("ClientToken", ctx.idempotency_token);
    std::string description = GetString(planned, "description");
    if (!description.empty()) call.Add("VersionDescription", description);
    AddLaunchTemplateData(call, planned);
    AddTagSpecification(call, "launch-template", TagsOnCreate(ctx, planned));
    Result<XmlResponse> created = CallEc2(*session_, ctx, call);
    if (!created.ok()) return CreateFailed("CreateLaunchTemplate", created.error());
    std::string id = XmlText(created->result, "launchTemplate/launchTemplateId");
    Value with_name = With(planned, "name", Value::String(name));
    // A default_version written at create can only be the first version, which it is.
    return ReadAfterWrite(ctx, with_name, id, {});
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest call = Ec2Call("DeleteLaunchTemplate");
    call.Add("LaunchTemplateId", GetString(prior, "id"));
    Result<XmlResponse> deleted = CallEc2(*session_, ctx, call);
    if (deleted.ok() || IsTemplateNotFound(deleted.error())) return {};
    return {AwsErrorDiag("DeleteLaunchTemplate", deleted.error())};
  }

  //! A destroy cannot resend the ClientToken (that would create): it looks for the template
  //! by the token tag the create set.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    return Ec2ResourceType::FindCreated(ctx, planned);
  }

 protected:
  //! Nothing to look for: Create sends the same ClientToken again.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    return ResourceType::FindCreated(ctx, planned);
  }

  //! A change to the template's data makes a new latest version, and with
  //! update_default_version a new default version (as does turning update_default_version on
  //! while the default is not the latest): they are known only after the update.
  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    Value out = planned;
    bool new_version = TemplateDataChanged(prior, planned);
    if (new_version) out = With(out, "latest_version", Value::Unknown());
    bool follows_latest = GetBool(planned, "update_default_version", false);
    if (follows_latest && (new_version || !Get(prior, "default_version").Equals(Get(prior, "latest_version")))) {
      out = With(out, "default_version", Value::Unknown());
    }
    return out;
  }

 private:
  static bool IsTemplateNotFound(const AwsError& error) {
    return error.code == kTemplateIdNotFound || error.code == kTemplateNameNotFound;
  }

  //! A new version when the template's data changed (Terraform sends the whole data, not a
  //! SourceVersion), then the default version: the latest with update_default_version, else
  //! default_version when written and different.
  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id, const Value& prior,
                               const Value& planned) override {
    std::string latest = GetString(prior, "latest_version");
    if (TemplateDataChanged(prior, planned)) {
      QueryRequest call = Ec2Call("CreateLaunchTemplateVersion");
      call.Add("LaunchTemplateId", id);
      std::string description = GetString(planned, "description");
      if (!description.empty()) call.Add("VersionDescription", description);
      AddLaunchTemplateData(call, planned);
      // No ClientToken to make the call idempotent: it is not sent twice after an unknown outcome.
      Result<XmlResponse> made = CallEc2(*session_, ctx, call, CreateCallOptionsFor(ctx));
      if (!made.ok()) return AwsErrorDiag("CreateLaunchTemplateVersion", made.error());
      latest = XmlText(made->result, "launchTemplateVersion/versionNumber");
    }
    std::string wanted = GetBool(planned, "update_default_version", false) ? latest : GetString(planned, "default_version");
    if (wanted.empty() || wanted == GetString(prior, "default_version")) return {};
    QueryRequest call = Ec2Call("ModifyLaunchTemplate");
    call.Add("LaunchTemplateId", id).Add("SetDefaultVersion", wanted);
    return RunEc2(*session_, ctx, call);
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item, const Value& prior) override {
    std::string id = item.child_value("launchTemplateId");
    std::string latest = item.child_value("latestVersionNumber");
    QueryRequest call = Ec2Call("DescribeLaunchTemplateVersions");
    call.Add("LaunchTemplateId", id).Add("LaunchTemplateVersion.1", latest);
    Result<XmlResponse> described = CallEc2(*session_, ctx, call);
    if (!described.ok()) {
      if (IsTemplateNotFound(described.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeLaunchTemplateVersions", described.error())};
    }
    pugi::xml_node version = described->result.child("launchTemplateVersionSet").child("item");
    if (!version) return {Value(), true, {}};
    // DescribeLaunchTemplates has no owner: the creator's ARN holds the account.
    std::string account = AccountOfArn(item.child_value("createdBy"));
    std::string description = version.child_value("versionDescription");
    TagMap remote = ReadTagSet(item);
    ValueMap state = ReadLaunchTemplateData(version.child("launchTemplateData"), prior);
    state["id"] = Value::String(id);
    state["name"] = Value::String(item.child_value("launchTemplateName"));
    state["name_prefix"] = Get(prior, "name_prefix");
    state["description"] = description.empty() ? Value() : Value::String(description);
    state["default_version"] = NumberText(item.child_value("defaultVersionNumber"));
    state["update_default_version"] = Get(prior, "update_default_version");
    state["latest_version"] = NumberText(latest);
    state["tags"] = TagsForState(remote, session_->default_tags, Get(prior, "tags"));
    state["tags_all"] = TagsValue(remote);
    state["arn"] = Value::String(MakeArn("ec2", session_->Region(), account, "launch-template/" + id));
    return {Value::Object(std::move(state)), false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsLaunchTemplate(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsLaunchTemplate>(std::move(session));
}

}  // namespace strata::aws
