#include "state/status.h"

namespace strata::state {

const char* StateCodeName(StateCode code) {
  switch (code) {
    case StateCode::Ok: return "ok";
    case StateCode::NotFound: return "not found";
    case StateCode::LockHeld: return "lock held";
    case StateCode::LockNotHeld: return "lock not held";
    case StateCode::LineageMismatch: return "lineage mismatch";
    case StateCode::SerialConflict: return "serial conflict";
    case StateCode::KeyMissing: return "key missing";
    case StateCode::KeyWrong: return "wrong key";
    case StateCode::SchemaTooNew: return "schema too new";
    case StateCode::Corrupt: return "corrupt";
    case StateCode::Busy: return "busy";
    case StateCode::Io: return "i/o error";
    case StateCode::Unreachable: return "unreachable";
    case StateCode::InvalidArgument: return "invalid argument";
  }
  return "unknown";
}

namespace {
const char* Summary(StateCode code) {
  switch (code) {
    case StateCode::NotFound: return "Not found in state";
    case StateCode::LockHeld: return "Error acquiring the state lock";
    case StateCode::LockNotHeld: return "State lock not held";
    case StateCode::LineageMismatch: return "State lineage mismatch";
    case StateCode::SerialConflict: return "State serial conflict";
    case StateCode::KeyMissing: return "State encryption key missing";
    case StateCode::KeyWrong: return "Wrong state encryption key";
    case StateCode::SchemaTooNew: return "State database is newer than this strata";
    case StateCode::Corrupt: return "State database is damaged";
    case StateCode::Busy: return "State database busy";
    case StateCode::Io: return "State database error";
    case StateCode::Unreachable: return "State database unreachable";
    case StateCode::InvalidArgument: return "Invalid state request";
    case StateCode::Ok: break;
  }
  return "State error";
}
}  // namespace

Diagnostic StateStatus::ToDiagnostic() const {
  Diagnostic d;
  d.severity = Severity::Error;
  d.summary = Summary(code_);
  d.detail = message_;
  return d;
}

}  // namespace strata::state
