#pragma once
// StateStatus / StateResult: how the state store reports expected failures (a held lock, a
// lineage mismatch, a wrong key, a damaged database). Every StateStore method returns one of
// these; none throws. The message is a complete sentence for the user: what happened, and
// what to do about it.

#include <cassert>
#include <optional>
#include <string>
#include <utility>

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

//! A value or the status saying why there is none.
template <class T>
class StateResult {
 public:
  StateResult(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StateResult(StateStatus status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return status_.ok(); }
  const StateStatus& status() const { return status_; }
  T& value() { assert(ok()); return *value_; }
  const T& value() const { assert(ok()); return *value_; }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }

 private:
  StateStatus status_;
  std::optional<T> value_;
};

}  // namespace strata::state
