#include "providers/aws/services/ec2/ec2_resource_type.h"

#include <cctype>

#include "providers/aws/services/ec2/ec2_tags.h"

namespace strata::aws {

using attrs::GetString;

ReadResult Ec2ResourceType::Read(const OperationContext& ctx, const Value& prior) {
  QueryRequest call = Ec2Call(api_.describe);
  call.Add(api_.id_param + ".1", GetString(prior, "id"));
  Result<XmlResponse> described = CallEc2(*session_, ctx, call);
  if (!described.ok()) {
    if (described.error().code == api_.not_found) return {Value(), true, {}};
    return {Value(), false, AwsErrorDiag(api_.describe, described.error())};
  }
  pugi::xml_node item = described->result.child(api_.item_set.c_str()).child("item");
  if (!item) return {Value(), true, {}};
  return StateFrom(ctx, item, prior);
}

std::string Ec2ResourceType::IdElement() const {
  std::string element = api_.id_param;
  if (!element.empty()) element[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(element[0])));
  return element;
}

std::vector<ReadResult> Ec2ResourceType::ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) {
  if (!ReadsInBatches()) return AwsResourceType::ReadMany(ctx, priors);
  return ReadByDescribe(
      *session_, ctx, priors, "id", {api_.describe, api_.item_set, batch_filter_, IdElement(), batch_page_size_},
      [&](pugi::xml_node item, const Value& prior) { return StateFrom(ctx, item, prior); },
      [&](const Value& prior) { return Read(ctx, prior); });
}

ReadResult Ec2ResourceType::FindCreated(const OperationContext& ctx, const Value& planned) {
  if (ctx.idempotency_token.empty()) return {Value(), true, {}};
  QueryRequest call = Ec2Call(api_.describe);
  AddFilter(call, 1, std::string("tag:") + kCreateTokenTag, ctx.idempotency_token);
  Result<XmlResponse> described = CallEc2(*session_, ctx, call);
  if (!described.ok()) return {Value(), false, AwsErrorDiag(api_.describe, described.error())};
  pugi::xml_node item = described->result.child(api_.item_set.c_str()).child("item");
  if (!item) return {Value(), true, {}};
  if (pugi::xml_node second = item.next_sibling("item")) {
    // Only a copy of the tag can do this: which one is ours is not for Strata to guess.
    std::string id_element = IdElement();
    return {Value(), false,
            attrs::Error("More than one object carries this create's token",
                           "Both " + std::string(item.child_value(id_element.c_str())) + " and " +
                               second.child_value(id_element.c_str()) + " carry the " + kCreateTokenTag + " tag " +
                               ctx.idempotency_token + " of " + ctx.address +
                               ": delete the one that is not wanted, then apply again.")};
  }
  return StateFrom(ctx, item, planned);
}

ApplyResult Ec2ResourceType::Update(const OperationContext& ctx, const Value& prior,
                                    const Value& planned) {
  std::string id = GetString(prior, "id");
  TagMap from = attrs::GetStringMap(prior, "tags_all"), to = WantedTags(planned);
  Diagnostics diags = RunEc2(*session_, ctx, DeleteTagsCall(id, from, to));
  if (!diags.HasErrors()) diags = RunEc2(*session_, ctx, CreateTagsCall(id, from, to));
  if (!diags.HasErrors()) diags = ModifyAttributes(ctx, id, prior, planned);
  return ReadAfterWrite(ctx, planned, id, diags);
}

DeleteResult Ec2ResourceType::Delete(const OperationContext& ctx, const Value& prior) {
  QueryRequest call = Ec2Call(api_.remove);
  call.Add(api_.id_param, GetString(prior, "id"));
  Result<XmlResponse> deleted = CallEc2(*session_, ctx, call);
  if (deleted.ok() || deleted.error().code == api_.not_found) return {};
  return {AwsErrorDiag(api_.remove, deleted.error())};
}

ApplyResult Ec2ResourceType::FinishCreate(const OperationContext& ctx, const QueryRequest& call,
                                          const std::string& id_path, const Value& planned) {
  Result<XmlResponse> created = CallEc2(*session_, ctx, call, CreateCallOptionsFor(ctx));
  if (!created.ok()) return CreateFailed(call.action, created.error());
  std::string id = XmlText(created->result, id_path);
  Diagnostics diags = ModifyAttributes(ctx, id, Value(), planned);
  return ReadAfterWrite(ctx, planned, id, diags);
}

}  // namespace strata::aws
