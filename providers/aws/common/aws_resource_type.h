#pragma once
// The aws provider's types are ResourceTypes (providers/resource_type.h): one class per
// type, each in its own file under services/<service>/, the generic plan and the attribute
// helpers reused. They reach AWS through the shared AwsSession.

#include <map>
#include <memory>
#include <string>

#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/tags.h"
#include "providers/resource_type.h"

namespace strata::aws {

//! A managed aws type. Types with `tags` get `tags_all` planned as default_tags + tags.
class AwsResourceType : public ResourceType {
 public:
  explicit AwsResourceType(std::shared_ptr<AwsSession> session)
      : session_(std::move(session)) {}

 protected:
  Value ApplyDefaults(const Value& v) const override;
  //! The tags the object must carry: default_tags + `tags` of `planned`. (tags_all may
  //! still be unknown at apply when tags came from another resource.)
  std::map<std::string, std::string> WantedTags(const Value& planned) const;
  //! The tags a create call sends: WantedTags(planned) plus the create-token tag holding
  //! ctx.idempotency_token (common/tags.h), by which recovery finds or recognises the object.
  TagMap TagsOnCreate(const OperationContext& ctx, const Value& planned) const;
  //! Recovery's error when an object holds the natural key of the create being recovered
  //! but that create did not make it: `what` names the object ("IAM role \"app\""), `why`
  //! says how it shows, `import_id` is the id `strata import` would take.
  //! The result is marked not_ours.
  ReadResult NotCreatedByThisApply(const OperationContext& ctx, const std::string& what,
                                   const std::string& why, const std::string& import_id) const;
  //! Recovery of a type read by its natural key whose create call tags the object with its
  //! token: `found` (that read) is ours when `found_token`, the object's create-token tag,
  //! is this create's token; otherwise NotCreatedByThisApply. A read that found nothing or
  //! failed is returned as it is.
  ReadResult ClaimIfOurs(const OperationContext& ctx, ReadResult found, const std::string& found_token,
                         const std::string& what, const std::string& import_id) const;
  //! A name for an object whose config gives only a prefix: `prefix` and 26 characters
  //! (as Terraform's unique ids) that are the same for a create and its recovery — the
  //! idempotency token's — or, without a token, the time in microseconds, zero-padded.
  static std::string UniqueName(const std::string& prefix, const OperationContext& ctx);
  //! The object's name for a create and its recovery: `name` of `planned`, else UniqueName
  //! of `name_prefix` (`default_prefix` when neither is set).
  static std::string NameOrUnique(const OperationContext& ctx, const Value& planned, const std::string& default_prefix);
  //! The error for a config that sets both `name` and `name_prefix`; none otherwise.
  static Diagnostics NameAndPrefixConflict(const Value& config);
  //! Import by id: a Read of a prior value holding only the id.
  ApplyResult ImportById(const OperationContext& ctx, const std::string& id);
  //! The state after a create or update of object `id`: a Read with `planned` as the
  //! prior. `diags` are the write's own; if the write or the read failed, the state is
  //! `planned` with the id set and unknowns nulled, so the engine keeps track of the object.
  ApplyResult ReadAfterWrite(const OperationContext& ctx, const Value& planned,
                             const std::string& id, Diagnostics diags);

  std::shared_ptr<AwsSession> session_;
};

//! A data source of the aws provider.
class AwsDataSourceType : public DataSourceType {
 public:
  explicit AwsDataSourceType(std::shared_ptr<AwsSession> session)
      : session_(std::move(session)) {}

 protected:
  std::shared_ptr<AwsSession> session_;
};

}  // namespace strata::aws
