#include "providers/aws/provider/aws_resource_type.h"

#include "providers/aws/provider/ec2_tags.h"

namespace strata::aws {

Value AwsResourceType::ApplyDefaults(const Value& v) const {
  if (!Schema().attributes.count("tags_all")) return v;
  Value tags = builtin::Get(v, "tags");
  if (!tags.IsNull() && !tags.IsWhollyKnown()) return builtin::With(v, "tags_all", Value::Unknown());
  return builtin::With(v, "tags_all",
                       TagsValue(MergeTags(session_->default_tags, builtin::GetStringMap(v, "tags"))));
}

TagMap AwsResourceType::WantedTags(const Value& planned) const {
  return MergeTags(session_->default_tags, builtin::GetStringMap(planned, "tags"));
}

ApplyResult AwsResourceType::ImportById(const OperationContext& ctx, const std::string& id) {
  ReadResult read = Read(ctx, Value::Object({{"id", Value::String(id)}}));
  ApplyResult result{read.state, read.diags};
  if (read.gone) {
    result.diags.Error("Cannot import non-existent remote object",
                       "No " + Schema().type + " with id \"" + id + "\" exists.");
  }
  return result;
}

namespace {

Value NullUnknowns(const Value& v) {
  if (!v.IsMapping()) return v;
  ValueMap m = v.AsMap();
  for (auto& [name, item] : m) {
    if (!item.IsWhollyKnown()) item = Value();
  }
  return Value::Object(std::move(m));
}

}  // namespace

ApplyResult AwsResourceType::ReadAfterWrite(const OperationContext& ctx, const Value& planned,
                                            const std::string& id, Diagnostics diags) {
  Value fallback = NullUnknowns(builtin::With(planned, "id", Value::String(id)));
  if (diags.HasErrors()) return {fallback, diags};
  ReadResult read = Read(ctx, fallback);
  diags.Append(read.diags);
  if (read.gone) {
    diags.Error("Object vanished after apply",
                Schema().type + " \"" + id + "\" was not found right after it was written.");
  }
  return {read.state.IsNull() ? fallback : read.state, diags};
}

}  // namespace strata::aws
