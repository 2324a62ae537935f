#pragma once
// StateStatus / StateResult: how the state store reports expected failures (a held lock, a
// lineage mismatch, a wrong key, a damaged database). Every StateStore method returns one of
// these; none throws. The message is a complete sentence for the user: what happened, and
// what to do about it.

#include <cassert>
#include <string>
#include <utility>

#include "engine/base/result.h"
#include "engine/diag/diagnostic.h"

namespace strata::state {

enum class StateCode {
  Ok,
  NotFound,         // no such stage, resource, serial, lock or output
  LockHeld,         // another holder has the stage's lock
  LockNotHeld,      // a write without (or after losing) the stage's lock
  LineageMismatch,  // push/rollback of a state from another lineage
  SerialConflict,   // push of an older (or diverging) serial
  KeyMissing,       // encrypted values and no key configured
  KeyWrong,         // encrypted with a key other than the one configured, or tampered
  SchemaTooNew,     // database written by a newer strata
  Corrupt,          // not a database, truncated, or failing integrity checks
  Busy,             // the database stayed locked by another process past the busy timeout
  Io,               // any other SQLite or file-system failure
  Unreachable,      // the database went away and did not come back within state.retry_timeout
  InvalidArgument,  // the caller asked for something malformed
};

//! "not found", "lock held", ... (stable, used in test expectations and JSON output).
const char* StateCodeName(StateCode code);

class StateStatus {
 public:
  StateStatus() = default;
  static StateStatus Ok() { return StateStatus(); }
  static StateStatus Error(StateCode code, std::string message) {
    assert(code != StateCode::Ok);
    StateStatus s;
    s.code_ = code;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return code_ == StateCode::Ok; }
  StateCode code() const { return code_; }
  const std::string& message() const { return message_; }
  //! An error diagnostic: a summary chosen by code ("State lock held") and the message as detail.
  Diagnostic ToDiagnostic() const;

 private:
  StateCode code_ = StateCode::Ok;
  std::string message_;
};

//! A value or the status saying why there is none: base::Result with the store's status,
//! which also answers status() when there is a value (an Ok status).
template <class T>
class StateResult : public base::Result<T, StateStatus> {
 public:
  StateResult(T value) : base::Result<T, StateStatus>(std::move(value)) {}  // NOLINT: implicit by design
  StateResult(StateStatus status) : base::Result<T, StateStatus>(std::move(status)) {  // NOLINT
    assert(!this->error().ok());
  }

  const StateStatus& status() const {
    static const StateStatus kOk;
    return this->ok() ? kOk : this->error();
  }
};

}  // namespace strata::state
