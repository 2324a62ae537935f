#pragma once
// The plain data the state store keeps, per stage: resource instances, outputs, the
// operations journal, locks and history. No behaviour beyond naming and lookup.
//
// Timestamps are Unix milliseconds (UTC). Sensitive values are not flagged by a separate
// field: they carry Value's sensitive mark, from which the store derives the sensitive
// attribute paths it encrypts at rest, and which it restores on load.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/addr/addr.h"
#include "engine/value/value.h"

namespace strata::state {

//! Where a resource instance is in its life. Pending-* mark an operation that was sent to
//! the provider (or was about to be) whose answer has not been recorded yet.
enum class ResourceStatus { Created, Tainted, PendingCreate, PendingUpdate, PendingDelete };
const char* ToString(ResourceStatus s);  // "created", "tainted", "pending-create", ...
std::optional<ResourceStatus> ParseResourceStatus(std::string_view s);

struct ResourceInstanceState {
  ResourceInstanceAddr addr;          // mode and type come from here
  std::string provider;               // e.g. "aws" or "aws.west"
  Value attributes;                   // an object; sensitive parts carry the sensitive mark
  std::vector<std::string> dependencies;  // resource addresses (strings) this one depends on
  ResourceStatus status = ResourceStatus::Created;
  std::string idempotency_token;      // of the last operation sent for this instance
  int64_t schema_version = 0;         // the provider's schema version for the attributes
  int64_t created_at = 0;             // set by the store on first write when 0
  int64_t updated_at = 0;             // set by the store on every write
  //! Empty for the instance's current object. Otherwise the object was *deposed*: a
  //! create_before_destroy replacement took its place, and it waits (under this key, eight
  //! hex digits as Terraform spells them) for its delete. An instance has at most one
  //! current object and any number of deposed ones.
  std::string deposed;

  //! A create was journaled but never answered: the row holds only its token, no object.
  bool IsInterruptedCreate() const { return status == ResourceStatus::PendingCreate && !attributes.IsMapping(); }
};

struct OutputState {
  std::string name;
  Value value;  // a sensitive output's value is returned marked sensitive
  bool sensitive = false;
};

//! A stage's whole state. `exists` is false for a stage never written (lineage empty, serial 0).
struct StageState {
  std::string stage;
  bool exists = false;
  std::string lineage;  // a UUID, assigned at the first write
  int64_t serial = 0;   // one increment per committed change set
  std::vector<ResourceInstanceState> resources;  // current objects, ordered by address string
  //! Deposed objects (ResourceInstanceState::deposed), ordered by address and key: kept
  //! apart so that whatever reads an instance's current object never mistakes one for it.
  std::vector<ResourceInstanceState> deposed;
  std::vector<OutputState> outputs;              // ordered by name

  //! The instance's current object (never a deposed one).
  const ResourceInstanceState* FindResource(const ResourceInstanceAddr& addr) const;
  const OutputState* FindOutput(const std::string& name) const;
};

//! An output of an earlier stage as a stage's last full apply read it (${stage.S.X}): enough
//! to tell later whether that output has changed since, never the value itself.
struct UpstreamRead {
  std::string stage;       // the stage read (in the reader's environment)
  std::string output;
  //! That stage's serial, taken just before its outputs were read: the value came from this
  //! serial or a later one (informational; the digest decides whether the value changed).
  int64_t serial = 0;
  std::string digest;      // hex SHA-256 of the value's canonical JSON (engine/core/upstream_reads.h)
  bool sensitive = false;  // the value was (or held) a sensitive one: say so, never more

  bool operator==(const UpstreamRead&) const = default;
};

//! A short description of a stage for listings.
struct StageSummary {
  std::string name;
  std::string lineage;
  int64_t serial = 0;
  int64_t resource_count = 0;
  int64_t updated_at = 0;
};

enum class OperationAction { Create, Update, Delete, Read };
const char* ToString(OperationAction a);  // "create", "update", "delete", "read"
std::optional<OperationAction> ParseOperationAction(std::string_view s);

enum class OperationStatus { Pending, Completed, Failed };
const char* ToString(OperationStatus s);  // "pending", "completed", "failed"
std::optional<OperationStatus> ParseOperationStatus(std::string_view s);

//! One provider operation in the journal. A Pending record whose process is gone is an
//! operation in flight at a crash: its idempotency token lets the next plan reconcile it.
struct OperationRecord {
  int64_t id = 0;
  std::string stage;
  int64_t change_set_id = 0;
  ResourceInstanceAddr addr;
  std::string deposed;  // the deposed object's key when the operation is on one
  OperationAction action = OperationAction::Create;
  std::string idempotency_token;
  OperationStatus status = OperationStatus::Pending;
  int64_t started_at = 0;
  int64_t finished_at = 0;  // 0 while pending
  std::string error;        // for Failed
};

//! Who holds a stage's lock. `stale` is computed when read: the holder ran on this host and
//! that process no longer exists (pid and process start time are both checked). A stale
//! lock is taken over by the next TryLock (it says so in `took_over`).
struct LockInfo {
  std::string id;  // a UUID; what force-unlock takes
  std::string stage;
  std::string environment = "default";  // the environment of `stage` (environments.h)
  std::string user;
  std::string host;
  int64_t pid = 0;
  int64_t process_start = 0;  // the holder process's start time (Linux clock ticks), 0 unknown
  std::string operation;      // "apply", "state rm", ...
  int64_t since = 0;
  bool stale = false;
  //! Set on a lock just taken: the stale lock it replaced ("alice@ws1 (pid 4242) for
  //! \"apply\" since 2026-11-26T10:00:00Z, lock ID ..."), empty when there was none.
  std::string took_over;
  //! Set by ForceUnlock when the stage is not free yet: what still holds it (PostgreSQL:
  //! the holder's database session, until it ends). Empty when the stage is free.
  std::string still_held;

  std::string Holder() const { return user + "@" + host; }
};

//! One kept snapshot in a stage's history.
struct HistoryEntry {
  int64_t serial = 0;
  std::string lineage;
  int64_t created_at = 0;
  std::string operation;  // what committed it: "apply", "state rm", "rollback to 3", ...
  std::string holder;     // user@host
  int64_t resource_count = 0;
  int64_t output_count = 0;
};

//! Formats Unix milliseconds as RFC 3339 UTC ("2026-11-22T06:18:28Z").
std::string FormatTimestamp(int64_t unix_millis);

}  // namespace strata::state
