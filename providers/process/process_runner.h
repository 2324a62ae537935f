#pragma once
// Seam: running a command — the builtin exec resource type's command, the kubernetes
// provider's exec credential plugins. The real runner spawns the process in its own process
// group (stdin from /dev/null), captures stdout and stderr, and kills the whole group when
// the timeout passes or the operation is cancelled.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "providers/provider.h"

namespace strata {

struct ProcessSpec {
  std::vector<std::string> argv;             // argv[0] is looked up in PATH
  std::map<std::string, std::string> env;    // added to (and overriding) the parent's
  std::string working_dir;                   // empty: the current directory
  std::optional<std::chrono::milliseconds> timeout;
  //! How often to report "still running... (20s elapsed)" through ctx.progress.
  std::chrono::milliseconds progress_every{10000};
};

struct ProcessResult {
  bool started = false;
  int exit_code = -1;       // when it exited normally
  int signal = 0;           // when a signal ended it
  bool timed_out = false;   // killed because the timeout (or ctx deadline) passed
  bool cancelled = false;   // killed because ctx was cancelled
  std::string stdout_text;
  std::string stderr_text;
  std::string combined;     // stdout and stderr interleaved as they arrived
  std::string error;        // could not start: "cannot run \"foo\": No such file or directory"

  bool ok() const { return started && exit_code == 0 && !timed_out && !cancelled; }
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  //! Runs to completion, or until spec.timeout / ctx's deadline / ctx's cancellation.
  virtual ProcessResult Run(const OperationContext& ctx, const ProcessSpec& spec) = 0;
};

//! posix_spawn, poll and a process group per command.
std::shared_ptr<ProcessRunner> PosixProcessRunner();

//! A scripted runner for tests: records every spec and answers with `respond` (by default
//! a successful run with no output).
class FakeProcessRunner : public ProcessRunner {
 public:
  ProcessResult Run(const OperationContext& ctx, const ProcessSpec& spec) override;
  std::vector<ProcessSpec> Calls() const;
  std::function<ProcessResult(const ProcessSpec&)> respond;

 private:
  mutable std::mutex mu_;
  std::vector<ProcessSpec> calls_;
};

}  // namespace strata
