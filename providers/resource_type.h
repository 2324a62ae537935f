#pragma once
// The shape every provider's types share: one ResourceType (or DataSourceType) per type,
// each in its own file, which a provider dispatches to by name (BuiltinProvider,
// AwsProvider). The base class carries what is the same for all of them: the generic plan
// (defaults, computed attributes unknown on create, force_new), and the create that first
// looks for what an interrupted or unanswered create made (CreateOrAdopt).

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "providers/attributes.h"
#include "providers/provider.h"

namespace strata {

//! One managed resource type. The defaults suit types that live only in state: Read returns
//! the prior state, Update returns the planned value, Delete does nothing, Import fails.
class ResourceType {
 public:
  virtual ~ResourceType() = default;

  //! The type's schema. It must not change once the type is constructed: callers read it
  //! through CachedSchema().
  virtual ResourceSchema Schema() const = 0;
  //! Schema(), built on the first call and kept (thread-safe): building a schema parses
  //! its attribute types, and a plan of 10,000 objects asked for it four times per object.
  const ResourceSchema& CachedSchema() const;
  //! How an interrupted create of this type is found again. Every type declares it (a test
  //! checks each registered type); it is published as ResourceSchema::create_recovery.
  virtual CreateRecovery Recovery() const { return CreateRecovery::Unspecified; }
  //! Schema() with create_recovery filled in from Recovery(): what a provider publishes.
  ResourceSchema PublishedSchema() const;
  //! The provider's CreateResource: Create, or, when ctx.resume_interrupted_create says an
  //! earlier create with the same token may have made the object, FindCreated first and
  //! Adopt what it finds (Create only when nothing is found). A Create whose outcome is
  //! unknown (ApplyResult::outcome_unknown) is followed by FindCreated for the types that
  //! find objects by tag or natural key; when nothing is found yet, the result keeps
  //! outcome_unknown and the engine keeps the instance pending for the next run.
  ApplyResult CreateOrAdopt(const OperationContext& ctx, const Value& planned);
  //! The provider's FindInterruptedCreate (its three answers are documented there): a
  //! StateOnly type made nothing outside state (gone); token-tag and natural-key types look
  //! with FindCreated; client-token, re-run and undeclared types cannot tell unless they
  //! override this (an API that reads the client token back, a token tag set beside it).
  //! A destroy's `planned` may hold unknowns (values of data sources and of other pending
  //! creates): when one of these attributes is unknown, the type cannot tell.
  virtual ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned);
  //! The attributes FindInterrupted needs known: by default every attribute the user can
  //! set; a type whose lookup needs less (a token tag, a name) says which.
  virtual std::vector<std::string> RecoveryKey() const;
  //! Checks beyond the schema (ranges, conflicts); values may be unknown.
  virtual Diagnostics Validate(const Value& config) const;
  //! Provider::OrderingClass for this type (0: no order).
  virtual int OrderingClass(const Value& value) const {
    (void)value;
    return 0;
  }
  //! The generic plan: defaults filled in; on create (or replace) every computed attribute
  //! not set in config becomes unknown; force_new attributes that differ from prior are
  //! requires_replace; an in-place update goes through PlanUpdate.
  virtual PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                          const Value& config) const;
  virtual ApplyResult Create(const OperationContext& ctx, const Value& planned) = 0;
  virtual ReadResult Read(const OperationContext& ctx, const Value& prior);
  //! Provider::ReadsInBatches for this type: true when ReadMany costs fewer calls than Read
  //! per object.
  virtual bool ReadsInBatches() const { return false; }
  //! Provider::ReadResources for this type (one result per prior, Read's contract for each).
  //! The default loops Read.
  virtual std::vector<ReadResult> ReadMany(const OperationContext& ctx, const std::vector<Value>& priors);
  virtual ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned);
  virtual DeleteResult Delete(const OperationContext& ctx, const Value& prior);
  virtual ApplyResult Import(const OperationContext& ctx, const std::string& id);
  //! Provider::MoveResourceState into this type; `from` is the provider's own type the
  //! object was recorded under (null when another provider's); the state it returns is
  //! normalized to Schema() and masked. The default refuses.
  virtual MoveResult MoveFrom(const ResourceType* from, const MoveStateRequest& request) const;

 protected:
  //! Looks for the object an earlier create with ctx.idempotency_token made, by the type's
  //! Recovery(): the token tag or the natural key (a ClientToken type needs nothing here:
  //! Create sends the same token). Returns its state, or `gone` when there is none. The
  //! default finds nothing, which is right for ClientToken, StateOnly and Rerun types.
  virtual ReadResult FindCreated(const OperationContext& ctx, const Value& planned);
  //! Brings an object FindCreated found to `planned`, whose unknown attributes (what the
  //! provider computes: ids, ARNs, computed attributes the config leaves unmanaged) are
  //! the found object's to tell. The default is Update(found, KnownFrom(planned, found));
  //! a type overrides it where finishing an interrupted create is more than that update.
  virtual ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) {
    return Update(ctx, found, KnownFrom(planned, found));
  }
  //! Adopt(found) with found's diagnostics; a failed adjustment keeps the found object.
  ApplyResult AdoptFound(const OperationContext& ctx, const ReadResult& found, const Value& planned);
  //! True for the types FindCreated can look for right after a lost create answer.
  bool LooksForLostCreates() const;
  //! `planned` with each unknown top-level attribute taken from `found`.
  static Value KnownFrom(const Value& planned, const Value& found);
  //! Fills in defaults of optional+computed attributes left null.
  virtual Value ApplyDefaults(const Value& v) const { return v; }
  //! Marks computed attributes that an in-place update will change as unknown.
  virtual Value PlanUpdate(const Value& prior, const Value& planned) const {
    (void)prior;
    return planned;
  }

 private:
  mutable std::once_flag schema_once_;
  mutable ResourceSchema schema_;
};

//! One data source type.
class DataSourceType {
 public:
  virtual ~DataSourceType() = default;
  virtual ResourceSchema Schema() const = 0;
  virtual ReadResult Read(const OperationContext& ctx, const Value& config) = 0;
};

}  // namespace strata
