// aws_autoscaling_group_tag: one tag of an Auto Scaling group made by someone else — the
// group EKS makes for a managed node group, which needs the cluster-autoscaler's
// node-template tags to scale from zero. Terraform's names: `autoscaling_group_name` (a new
// group is a new tag) and one `tag { key, value, propagate_at_launch }` block (a new key is
// a new tag; value and propagate_at_launch change in place). The id is "group,key"
// (Terraform's; a key may hold ',' but the group name is taken up to the first one).
//
// CreateOrUpdateTags sets the tag whether or not it is there, so the (group, key) pair is
// the natural key: an interrupted create is finished by setting the tag again, and nothing
// can be doubled.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/autoscaling/autoscaling_api.h"
#include "providers/aws/services/autoscaling/autoscaling_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

struct TagAddress {
  std::string group;
  std::string key;
  std::string Id() const { return group + "," + key; }
};

class AwsAutoscalingGroupTag final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_autoscaling_group_tag",
                         {{"autoscaling_group_name", Required("string", true)},
                          {"tag", Required("list(object({key=string, value=string, propagate_at_launch=bool}))")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  Diagnostics Validate(const Value& config) const override {
    Value tag = Get(config, "tag");
    if (tag.IsSequence() && tag.AsList().size() != 1) {
      return Error("Invalid tag block", "aws_autoscaling_group_tag takes exactly one tag block, not " +
                                            std::to_string(tag.AsList().size()) + ".");
    }
    return {};
  }

  //! A new key is a new tag (Terraform: key is ForceNew inside the block).
  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    PlanResult result = AwsResourceType::Plan(ctx, prior, proposed, config);
    if (prior.IsNull() || result.planned.IsNull() || !result.requires_replace.empty()) return result;
    Value old_key = Get(FirstBlock(prior, "tag"), "key"), new_key = Get(FirstBlock(result.planned, "tag"), "key");
    if (old_key.Equals(new_key)) return result;
    PlanResult replace = AwsResourceType::Plan(ctx, Value(), proposed, config);
    replace.requires_replace = {AttrPath::Of("tag").Index(0).Attr("key")};
    return replace;
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    TagAddress at = AddressOf(planned);
    GroupTag tag = TagOf(planned);
    Result<XmlResponse> done = Put(ctx, at.group, tag);
    if (done.ok()) return ReadAfterWrite(ctx, planned, at.Id(), {});
    ApplyResult failed = CreateFailed("CreateOrUpdateTags", done.error());
    ExplainMissingGroup(done.error(), at.group, tag, failed.diags);
    return failed;
  }

  //! The tag of the planned (group, key), whoever set it: setting it again is the create.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override { return Read(ctx, planned); }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    TagAddress at = AddressOf(prior);
    Result<std::optional<GroupTag>> found = DescribeGroupTag(*session_, ctx, at.group, at.key);
    if (!found.ok()) return {Value(), false, AwsErrorDiag("DescribeTags", found.error())};
    if (!found->has_value()) return {Value(), true, {}};
    const GroupTag& tag = **found;
    return {Value::Object({{"id", Value::String(at.Id())},
                           {"autoscaling_group_name", Value::String(at.group)},
                           {"tag", Value::List({Value::Object({{"key", Value::String(tag.key)},
                                                               {"value", Value::String(tag.value)},
                                                               {"propagate_at_launch", Value::Bool(tag.propagate_at_launch)}})})}}),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    TagAddress at = AddressOf(prior);
    GroupTag tag = TagOf(planned);
    Result<XmlResponse> done = Put(ctx, at.group, tag);
    Diagnostics diags;
    if (!done.ok()) {
      diags = AwsErrorDiag("CreateOrUpdateTags", done.error());
      ExplainMissingGroup(done.error(), at.group, tag, diags);
    }
    return ReadAfterWrite(ctx, planned, at.Id(), diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    TagAddress at = AddressOf(prior);
    QueryRequest call = AutoScalingCall("DeleteTags");
    AddGroupTag(call, 1, at.group, TagOf(prior));
    Result<XmlResponse> deleted = CallAutoScaling(*session_, ctx, call);
    // A group that is gone took its tags with it.
    if (!deleted.ok() && !IsGroupNotFound(deleted.error())) return {AwsErrorDiag("DeleteTags", deleted.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    size_t comma = id.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 == id.size()) {
      return {Value(), Error("Invalid import id", "An aws_autoscaling_group_tag is imported by \"group_name,key\", not \"" +
                                                      id + "\".")};
    }
    return ImportById(ctx, id);
  }

 private:
  //! From the id when there is one (state), else from the arguments (a plan).
  static TagAddress AddressOf(const Value& v) {
    std::string id = GetString(v, "id");
    size_t comma = id.find(',');
    if (comma != std::string::npos) return {id.substr(0, comma), id.substr(comma + 1)};
    return {GetString(v, "autoscaling_group_name"), GetString(FirstBlock(v, "tag"), "key")};
  }

  static GroupTag TagOf(const Value& v) {
    Value tag = FirstBlock(v, "tag");
    return {GetString(tag, "key"), GetString(tag, "value"), GetBool(tag, "propagate_at_launch", false)};
  }

  Result<XmlResponse> Put(const OperationContext& ctx, const std::string& group, const GroupTag& tag) const {
    QueryRequest call = AutoScalingCall("CreateOrUpdateTags");
    AddGroupTag(call, 1, group, tag);
    return CallAutoScaling(*session_, ctx, call);
  }

  void ExplainMissingGroup(const AwsError& error, const std::string& group, const GroupTag& tag,
                           Diagnostics& diags) const {
    if (!IsGroupNotFound(error)) return;
    diags.Error("No Auto Scaling group \"" + group + "\"",
                "The tag \"" + tag.key + "\" cannot be set: the group does not exist in " + session_->Region() +
                    ". For a node group's group, use aws_eks_node_group's resources[0].autoscaling_groups[0].name.");
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsAutoscalingGroupTag(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsAutoscalingGroupTag>(std::move(session));
}

}  // namespace strata::aws
