#pragma once
// StateEnvironment: the seam through which the state store meets the machine — the clock,
// sleeping, randomness (lineages, lock ids, nonces), who and where we are, whether a process
// still exists, and environment variables. Tests substitute a fake; everything else uses
// StateEnvironment::System().

#include <cstdint>
#include <optional>
#include <string>

namespace strata::state {

enum class ProcessLiveness { Alive, Gone, Unknown };

class StateEnvironment {
 public:
  virtual ~StateEnvironment() = default;

  virtual int64_t NowMillis() = 0;
  virtual void SleepMillis(int64_t millis) = 0;
  //! Cryptographically strong random bytes (OpenSSL RAND_bytes in the system environment).
  virtual std::string RandomBytes(size_t n) = 0;
  virtual std::string Hostname() = 0;
  virtual std::string UserName() = 0;
  virtual int64_t Pid() = 0;
  //! The start time of process `pid` (Linux: /proc/PID/stat field 22), or 0 if unknown.
  virtual int64_t ProcessStartTime(int64_t pid) = 0;
  //! Whether process `pid` on this host still exists and, when `start_time` is non-zero, is
  //! the same process (not a later one that reused the pid).
  virtual ProcessLiveness CheckProcess(int64_t pid, int64_t start_time) = 0;
  virtual std::optional<std::string> Getenv(const std::string& name) = 0;

  //! The real machine. Thread-safe; lives for the whole process.
  static StateEnvironment& System();
};

//! A random (version 4) UUID from env.RandomBytes.
std::string NewUuid(StateEnvironment& env);

}  // namespace strata::state
