#include "providers/aws/provider/ec2_resource_type.h"

#include "providers/aws/provider/ec2_tags.h"

namespace strata::aws {

using builtin::GetString;

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

ApplyResult Ec2ResourceType::Update(const OperationContext& ctx, const Value& prior,
                                    const Value& planned) {
  std::string id = GetString(prior, "id");
  TagMap from = builtin::GetStringMap(prior, "tags_all"), to = WantedTags(planned);
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
  Result<XmlResponse> created = CallEc2(*session_, ctx, call);
  if (!created.ok()) return {Value(), AwsErrorDiag(call.action, created.error())};
  std::string id = XmlText(created->result, id_path);
  Diagnostics diags = ModifyAttributes(ctx, id, Value(), planned);
  return ReadAfterWrite(ctx, planned, id, diags);
}

}  // namespace strata::aws
