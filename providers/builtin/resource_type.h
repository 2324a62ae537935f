#pragma once
// The builtin provider's internal shape: one ResourceType (or DataSourceType) per type, each
// in its own file, and the seams they share. BuiltinProvider dispatches to them by name.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "providers/builtin/clock.h"
#include "providers/builtin/file_system.h"
#include "providers/builtin/process_runner.h"
#include "providers/builtin/random_source.h"
#include "providers/provider.h"

namespace strata {

//! The outside world as the builtin types see it.
struct BuiltinEnv {
  std::shared_ptr<RandomSource> random;
  std::shared_ptr<Clock> clock;
  std::shared_ptr<FileSystem> files;
  std::shared_ptr<ProcessRunner> processes;

  //! OpenSSL randomness, the system clock, the local disk, posix_spawn.
  static BuiltinEnv Real();
};

//! One managed resource type. The defaults suit types that live only in state: Read returns
//! the prior state, Update returns the planned value, Delete does nothing, Import fails.
class ResourceType {
 public:
  explicit ResourceType(BuiltinEnv env) : env_(std::move(env)) {}
  virtual ~ResourceType() = default;

  virtual ResourceSchema Schema() const = 0;
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
  //! Checks beyond the schema (ranges, conflicts); values may be unknown.
  virtual Diagnostics Validate(const Value& config) const;
  //! The generic plan: defaults filled in; on create (or replace) every computed attribute
  //! not set in config becomes unknown; force_new attributes that differ from prior are
  //! requires_replace; an in-place update goes through PlanUpdate.
  virtual PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                          const Value& config) const;
  virtual ApplyResult Create(const OperationContext& ctx, const Value& planned) = 0;
  virtual ReadResult Read(const OperationContext& ctx, const Value& prior);
  virtual ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned);
  virtual DeleteResult Delete(const OperationContext& ctx, const Value& prior);
  virtual ApplyResult Import(const OperationContext& ctx, const std::string& id);

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

  BuiltinEnv env_;
};

//! One data source type.
class DataSourceType {
 public:
  explicit DataSourceType(BuiltinEnv env) : env_(std::move(env)) {}
  virtual ~DataSourceType() = default;
  virtual ResourceSchema Schema() const = 0;
  virtual ReadResult Read(const OperationContext& ctx, const Value& config) = 0;

 protected:
  BuiltinEnv env_;
};

// Factories, one per file.
std::unique_ptr<ResourceType> NewNullResource(BuiltinEnv env);
std::unique_ptr<ResourceType> NewTerraformData(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomId(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomString(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomPassword(BuiltinEnv env);
std::unique_ptr<ResourceType> NewLocalFile(BuiltinEnv env);
std::unique_ptr<ResourceType> NewLocalSensitiveFile(BuiltinEnv env);
std::unique_ptr<ResourceType> NewTimeSleep(BuiltinEnv env);
std::unique_ptr<ResourceType> NewExec(BuiltinEnv env);
std::unique_ptr<DataSourceType> NewLocalFileData(BuiltinEnv env);

// ---------------------------------------------------------------------------------------
// Helpers for object values and schemas.

namespace builtin {

//! The attribute `name` of object `v`; null if `v` is not an object or lacks it.
Value Get(const Value& v, const std::string& name);
//! `v` (an object, or null meaning {}) with `name` set to `value`.
Value With(const Value& v, const std::string& name, Value value);
//! A known, non-null string attribute, else `fallback`.
std::string GetString(const Value& v, const std::string& name, const std::string& fallback = "");
std::optional<double> GetNumber(const Value& v, const std::string& name);
bool GetBool(const Value& v, const std::string& name, bool fallback);
//! A known map/object of strings (others are converted with their printed form).
std::map<std::string, std::string> GetStringMap(const Value& v, const std::string& name);
std::vector<std::string> GetStringList(const Value& v, const std::string& name);
//! Every schema attribute present (null when missing), attributes outside the schema dropped,
//! sensitive attributes marked.
Value Normalize(const ResourceSchema& schema, const Value& v);

Diagnostics Error(const std::string& summary, const std::string& detail);

// Schema shorthands.
AttributeSchema Required(const char* type, bool force_new = false);
AttributeSchema Optional(const char* type, bool force_new = false);
//! Optional and computed: a default is filled in when left unset.
AttributeSchema OptionalComputed(const char* type, bool force_new = false);
AttributeSchema Computed(const char* type, bool sensitive = false);
//! A managed type's schema with the computed "id" attribute added.
ResourceSchema ManagedSchema(const char* type, std::map<std::string, AttributeSchema> attributes);

}  // namespace builtin
}  // namespace strata
