// aws_iam_policy: a customer managed IAM policy over CreatePolicy / GetPolicy +
// GetPolicyVersion / CreatePolicyVersion / TagPolicy / UntagPolicy / DeletePolicy, with
// Terraform's attribute names. The id is the ARN. A new document becomes a new default
// version; IAM keeps at most 5, so the oldest non-default one is deleted first when full.
// The path and name are the natural key (they make the ARN): an interrupted create is
// found again by them, and adopted only when the policy carries the create's token in its
// create-token tag (CreatePolicy sends it).

#include <algorithm>
#include <vector>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/iam/iam_api.h"
#include "providers/aws/services/iam/iam_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr size_t kMaxPolicyVersions = 5;

struct PolicyVersion {
  std::string id;  //!< "v3"
  bool is_default = false;
  long number() const { return id.size() > 1 ? std::strtol(id.c_str() + 1, nullptr, 10) : 0; }
};

class AwsIamPolicy final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_iam_policy", {{"name", Required("string", true)},
                                            {"path", OptionalComputed("string", true)},
                                            {"description", Optional("string", true)},
                                            {"policy", Required("string")},
                                            {"tags", Optional("map(string)")},
                                            {"tags_all", Computed("map(string)")},
                                            {"arn", Computed("string")},
                                            {"policy_id", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  //! A destroy's look needs the name and path (they make the ARN), not the document.
  std::vector<std::string> RecoveryKey() const override { return {"name", "path"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = IamCall("CreatePolicy");
    call.Add("PolicyName", GetString(planned, "name"))
        .Add("Path", GetString(planned, "path", "/"))
        .Add("PolicyDocument", GetString(planned, "policy"));
    std::string description = GetString(planned, "description");
    if (!description.empty()) call.Add("Description", description);
    AddIamTags(call, TagsOnCreate(ctx, planned));
    Result<XmlResponse> created = CallIam(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed(call.action, created.error());
    return ReadAfterWrite(ctx, planned, XmlText(created->result, "Policy/Arn"), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadPolicy(ctx, GetString(prior, "id", GetString(prior, "arn")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string arn = GetString(prior, "id");
    Diagnostics diags;
    std::string document = GetString(planned, "policy");
    if (!PolicyEquivalent(document, GetString(prior, "policy"))) {
      diags = NewDefaultVersion(ctx, arn, document);
    }
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    if (!diags.HasErrors()) diags = RunIam(*session_, ctx, IamUntagCall("UntagPolicy", "PolicyArn", arn, from, to));
    if (!diags.HasErrors()) diags = RunIam(*session_, ctx, IamTagCall("TagPolicy", "PolicyArn", arn, from, to));
    return ReadAfterWrite(ctx, planned, arn, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string arn = GetString(prior, "id", GetString(prior, "arn"));
    std::vector<PolicyVersion> versions;
    Diagnostics diags = ListVersions(ctx, arn, versions);
    if (diags.HasErrors()) return {diags};
    for (const PolicyVersion& v : versions) {
      if (v.is_default) continue;
      diags = DeleteVersion(ctx, arn, v.id);
      if (diags.HasErrors()) return {diags};
    }
    QueryRequest call = IamCall("DeletePolicy");
    call.Add("PolicyArn", arn);
    return {RunIamDelete(*session_, ctx, call)};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    Result<std::string> arn = IamArn(*session_, "policy" + GetString(planned, "path", "/") + name);
    if (!arn.ok()) return {Value(), false, AwsErrorDiag("GetCallerIdentity", arn.error())};
    std::string token;
    ReadResult found = ReadPolicy(ctx, *arn, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "IAM policy " + *arn, *arn);
  }

  Value ApplyDefaults(const Value& v) const override {
    return WithDefaultIamPath(AwsResourceType::ApplyDefaults(v));
  }

 private:
  //! GetPolicy and its default version's document as state (`prior` tells what was
  //! written); `token`, when given, receives the policy's create-token tag.
  ReadResult ReadPolicy(const OperationContext& ctx, const std::string& arn, const Value& prior,
                        std::string* token = nullptr) {
    QueryRequest call = IamCall("GetPolicy");
    call.Add("PolicyArn", arn);
    return ReadIamObject(*session_, ctx, call, "Policy", [&](pugi::xml_node policy) {
      QueryRequest version_call = IamCall("GetPolicyVersion");
      version_call.Add("PolicyArn", arn).Add("VersionId", policy.child_value("DefaultVersionId"));
      return ReadIamObject(*session_, ctx, version_call, "PolicyVersion", [&](pugi::xml_node version) {
        std::string description = policy.child_value("Description");
        TagMap remote = ReadIamTags(policy, token);
        Value state = Value::Object({
            {"id", Value::String(policy.child_value("Arn"))},
            {"arn", Value::String(policy.child_value("Arn"))},
            {"name", Value::String(policy.child_value("PolicyName"))},
            {"path", Value::String(policy.child_value("Path"))},
            {"description", description.empty() && Get(prior, "description").IsNull()
                                ? Value()
                                : Value::String(description)},
            {"policy", PolicyForState(version.child_value("Document"), Get(prior, "policy"))},
            {"policy_id", Value::String(policy.child_value("PolicyId"))},
            {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
            {"tags_all", TagsValue(remote)}});
        return ReadResult{state, false, {}};
      });
    });
  }

  //! The policy's versions; none (and no error) when the policy is gone.
  Diagnostics ListVersions(const OperationContext& ctx, const std::string& arn,
                           std::vector<PolicyVersion>& out) {
    QueryRequest call = IamCall("ListPolicyVersions");
    call.Add("PolicyArn", arn);
    Result<XmlResponse> listed = CallIam(*session_, ctx, call);
    if (!listed.ok()) {
      if (listed.error().code == kIamNoSuchEntity) return {};
      return AwsErrorDiag(call.action, listed.error());
    }
    for (pugi::xml_node m : listed->result.child("Versions").children("member")) {
      out.push_back({m.child_value("VersionId"), std::string(m.child_value("IsDefaultVersion")) == "true"});
    }
    return {};
  }

  Diagnostics DeleteVersion(const OperationContext& ctx, const std::string& arn, const std::string& id) {
    QueryRequest call = IamCall("DeletePolicyVersion");
    call.Add("PolicyArn", arn).Add("VersionId", id);
    return RunIam(*session_, ctx, call);
  }

  //! CreatePolicyVersion with SetAsDefault, making room first when 5 versions exist.
  Diagnostics NewDefaultVersion(const OperationContext& ctx, const std::string& arn,
                                const std::string& document) {
    std::vector<PolicyVersion> versions;
    Diagnostics diags = ListVersions(ctx, arn, versions);
    if (diags.HasErrors()) return diags;
    if (versions.size() >= kMaxPolicyVersions) {
      std::vector<PolicyVersion> old;
      for (const PolicyVersion& v : versions)
        if (!v.is_default) old.push_back(v);
      if (!old.empty()) {
        auto oldest = std::min_element(old.begin(), old.end(), [](const auto& a, const auto& b) {
          return a.number() < b.number();
        });
        diags = DeleteVersion(ctx, arn, oldest->id);
        if (diags.HasErrors()) return diags;
      }
    }
    QueryRequest call = IamCall("CreatePolicyVersion");
    call.Add("PolicyArn", arn).Add("PolicyDocument", document).Add("SetAsDefault", "true");
    return RunIam(*session_, ctx, call);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsIamPolicy(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsIamPolicy>(std::move(session));
}

}  // namespace strata::aws
