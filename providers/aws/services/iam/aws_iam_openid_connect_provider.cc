// aws_iam_openid_connect_provider: an IAM OIDC identity provider (an EKS cluster's IRSA
// issuer) over CreateOpenIDConnectProvider / GetOpenIDConnectProvider /
// AddClientIDToOpenIDConnectProvider / RemoveClientIDFromOpenIDConnectProvider /
// UpdateOpenIDConnectProviderThumbprint / TagOpenIDConnectProvider /
// UntagOpenIDConnectProvider / DeleteOpenIDConnectProvider, with Terraform's attribute
// names. The id is the ARN. IAM answers the url without its "https://": the user's text is
// kept when it names the same issuer. The url is the natural key (it makes the ARN): an
// interrupted create is found again by it, and adopted only when the provider carries the
// create's token in its create-token tag (CreateOpenIDConnectProvider sends it).

#include <algorithm>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/iam/iam_api.h"
#include "providers/aws/services/iam/iam_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

std::string WithoutScheme(const std::string& url) {
  std::string out = url;
  if (out.rfind("https://", 0) == 0) out = out.substr(8);
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

void AddMembers(QueryRequest& call, const std::string& name, const std::vector<std::string>& items) {
  int n = 0;
  for (const std::string& item : items) call.Add(name + ".member." + std::to_string(++n), item);
}

std::vector<std::string> Members(pugi::xml_node node) {
  std::vector<std::string> out;
  for (pugi::xml_node m : node.children("member")) out.push_back(m.child_value());
  return out;
}

Value StringsValue(const std::vector<std::string>& items, bool as_set) {
  ValueList list;
  for (const std::string& s : items) list.push_back(Value::String(s));
  return as_set ? Value::Set(std::move(list)) : Value::List(std::move(list));
}

class AwsIamOpenidConnectProvider final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_iam_openid_connect_provider", {{"url", Required("string", true)},
                                                             {"client_id_list", Required("set(string)")},
                                                             {"thumbprint_list", OptionalComputed("list(string)")},
                                                             {"tags", Optional("map(string)")},
                                                             {"tags_all", Computed("map(string)")},
                                                             {"arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  //! A destroy's look needs the URL (it makes the ARN).
  std::vector<std::string> RecoveryKey() const override { return {"url"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = IamCall("CreateOpenIDConnectProvider");
    call.Add("Url", GetString(planned, "url"));
    AddMembers(call, "ClientIDList", GetStringList(planned, "client_id_list"));
    if (Get(planned, "thumbprint_list").IsWhollyKnown()) {
      AddMembers(call, "ThumbprintList", GetStringList(planned, "thumbprint_list"));
    }
    AddIamTags(call, TagsOnCreate(ctx, planned));
    Result<XmlResponse> created = CallIam(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed(call.action, created.error());
    return ReadAfterWrite(ctx, planned, XmlText(created->result, "OpenIDConnectProviderArn"), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadProvider(ctx, GetString(prior, "id", GetString(prior, "arn")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string arn = GetString(prior, "id");
    Diagnostics diags;
    std::vector<std::string> old_ids = GetStringList(prior, "client_id_list");
    std::vector<std::string> new_ids = GetStringList(planned, "client_id_list");
    auto has = [](const std::vector<std::string>& v, const std::string& s) {
      return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (const std::string& id : new_ids) {
      if (diags.HasErrors() || has(old_ids, id)) continue;
      QueryRequest call = IamCall("AddClientIDToOpenIDConnectProvider");
      call.Add("OpenIDConnectProviderArn", arn).Add("ClientID", id);
      diags = RunIam(*session_, ctx, call);
    }
    for (const std::string& id : old_ids) {
      if (diags.HasErrors() || has(new_ids, id)) continue;
      QueryRequest call = IamCall("RemoveClientIDFromOpenIDConnectProvider");
      call.Add("OpenIDConnectProviderArn", arn).Add("ClientID", id);
      diags = RunIam(*session_, ctx, call);
    }
    Value thumbprints = Get(planned, "thumbprint_list");
    if (!diags.HasErrors() && thumbprints.IsWhollyKnown() && !thumbprints.IsNull() &&
        !thumbprints.Equals(Get(prior, "thumbprint_list"))) {
      QueryRequest call = IamCall("UpdateOpenIDConnectProviderThumbprint");
      call.Add("OpenIDConnectProviderArn", arn);
      AddMembers(call, "ThumbprintList", GetStringList(planned, "thumbprint_list"));
      diags = RunIam(*session_, ctx, call);
    }
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    if (!diags.HasErrors()) {
      diags = RunIam(*session_, ctx,
                     IamUntagCall("UntagOpenIDConnectProvider", "OpenIDConnectProviderArn", arn, from, to));
    }
    if (!diags.HasErrors()) {
      diags = RunIam(*session_, ctx,
                     IamTagCall("TagOpenIDConnectProvider", "OpenIDConnectProviderArn", arn, from, to));
    }
    return ReadAfterWrite(ctx, planned, arn, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest call = IamCall("DeleteOpenIDConnectProvider");
    call.Add("OpenIDConnectProviderArn", GetString(prior, "id", GetString(prior, "arn")));
    return {RunIamDelete(*session_, ctx, call)};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    Result<std::string> arn = IamArn(*session_, "oidc-provider/" + WithoutScheme(GetString(planned, "url")));
    if (!arn.ok()) return {Value(), false, AwsErrorDiag("GetCallerIdentity", arn.error())};
    std::string token;
    ReadResult found = ReadProvider(ctx, *arn, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "IAM OIDC provider " + *arn, *arn);
  }

 private:
  //! GetOpenIDConnectProvider of `arn` as state (`prior` tells what was written);
  //! `token`, when given, receives the provider's create-token tag.
  ReadResult ReadProvider(const OperationContext& ctx, const std::string& arn, const Value& prior,
                          std::string* token = nullptr) {
    QueryRequest call = IamCall("GetOpenIDConnectProvider");
    call.Add("OpenIDConnectProviderArn", arn);
    return ReadIamObject(*session_, ctx, call, "", [&](pugi::xml_node r) {
      std::string url = r.child_value("Url");
      Value prior_url = Get(prior, "url");
      Value url_value = prior_url.IsString() && WithoutScheme(prior_url.AsString()) == WithoutScheme(url)
                            ? prior_url
                            : Value::String("https://" + WithoutScheme(url));
      TagMap remote = ReadIamTags(r, token);
      Value state = Value::Object({{"id", Value::String(arn)},
                                   {"arn", Value::String(arn)},
                                   {"url", url_value},
                                   {"client_id_list", StringsValue(Members(r.child("ClientIDList")), true)},
                                   {"thumbprint_list", StringsValue(Members(r.child("ThumbprintList")), false)},
                                   {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                                   {"tags_all", TagsValue(remote)}});
      return ReadResult{state, false, {}};
    });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsIamOpenidConnectProvider(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsIamOpenidConnectProvider>(std::move(session));
}

}  // namespace strata::aws
