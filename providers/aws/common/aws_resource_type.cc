#include "providers/aws/common/aws_resource_type.h"

#include <algorithm>
#include <chrono>

#include "providers/aws/common/tags.h"

namespace strata::aws {

Value AwsResourceType::ApplyDefaults(const Value& v) const {
  if (!Schema().attributes.count("tags_all")) return v;
  Value tags = attrs::Get(v, "tags");
  if (!tags.IsNull() && !tags.IsWhollyKnown()) return attrs::With(v, "tags_all", Value::Unknown());
  return attrs::With(v, "tags_all",
                       TagsValue(MergeTags(session_->default_tags, attrs::GetStringMap(v, "tags"))));
}

TagMap AwsResourceType::WantedTags(const Value& planned) const {
  return MergeTags(session_->default_tags, attrs::GetStringMap(planned, "tags"));
}

TagMap AwsResourceType::TagsOnCreate(const OperationContext& ctx, const Value& planned) const {
  return WithCreateToken(WantedTags(planned), ctx.idempotency_token);
}

ReadResult AwsResourceType::NotCreatedByThisApply(const OperationContext& ctx, const std::string& what,
                                                  const std::string& why, const std::string& import_id) const {
  std::string address = ctx.address.empty() ? Schema().type + ".NAME" : ctx.address;
  ReadResult result;
  result.not_ours = true;
  result.diags = attrs::Error(what + " exists but was not made by this create",
                        what + " already exists and was not created by Strata's interrupted create of " + address +
                            " (" + why + "), so Strata will not take it over. Delete it, or adopt it with `strata import " +
                            address + " " + import_id + "`.");
  return result;
}

ReadResult AwsResourceType::ClaimIfOurs(const OperationContext& ctx, ReadResult found, const std::string& found_token,
                                        const std::string& what, const std::string& import_id) const {
  if (found.gone || found.diags.HasErrors()) return found;
  if (!ctx.idempotency_token.empty() && found_token == ctx.idempotency_token) return found;
  std::string why = found_token.empty() ? std::string("it has no ") + kCreateTokenTag + " tag"
                                        : std::string("its ") + kCreateTokenTag + " tag is another create's";
  return NotCreatedByThisApply(ctx, what, why, import_id);
}

std::string AwsResourceType::UniqueName(const std::string& prefix, const OperationContext& ctx) {
  constexpr size_t kSuffix = 26;
  if (!ctx.idempotency_token.empty()) return prefix + ctx.idempotency_token.substr(0, kSuffix);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch()).count();
  std::string digits = std::to_string(us);
  return prefix + std::string(kSuffix - std::min(kSuffix, digits.size()), '0') + digits;
}

std::string AwsResourceType::NameOrUnique(const OperationContext& ctx, const Value& planned,
                                          const std::string& default_prefix) {
  std::string name = attrs::GetString(planned, "name");
  return name.empty() ? UniqueName(attrs::GetString(planned, "name_prefix", default_prefix), ctx) : name;
}

Diagnostics AwsResourceType::NameAndPrefixConflict(const Value& config) {
  if (attrs::Get(config, "name").IsString() && attrs::Get(config, "name_prefix").IsString()) {
    return attrs::Error("Conflicting arguments", "Only one of name and name_prefix can be set.");
  }
  return {};
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
  Value fallback = NullUnknowns(attrs::With(planned, "id", Value::String(id)));
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
