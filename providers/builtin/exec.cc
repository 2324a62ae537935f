// exec: runs `command` (an argv list, no shell) on create and `destroy_command` on destroy,
// with `environment` added to the inherited environment, in `working_dir`, killed (its whole
// process group) after `timeout` (a Go duration) or when the operation is cancelled or
// reaches its deadline. The create's stdout, stderr and exit code are kept in state.
// A non-zero exit, a timeout or a failure to start fails the operation with the last
// kOutputLines lines of the command's output. Changing the command, its environment,
// working directory or triggers replaces the resource (running destroy, then create);
// destroy_command and timeout update in place.
#include <sstream>

#include "engine/base/hex.h"
#include "engine/base/duration.h"
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

constexpr size_t kOutputLines = 20;

std::string LastLines(const std::string& text, size_t count) {
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  size_t start = end;
  size_t lines = 0;
  while (start > 0) {
    if (text[start - 1] == '\n' && ++lines == count) break;
    --start;
  }
  return text.substr(start, end - start);
}

std::string Quote(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`") == std::string::npos;
    out += plain ? a : "'" + a + "'";
  }
  return out;
}

class Exec : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("exec", {{"command", Required("list(string)", true)},
                                  {"destroy_command", Optional("list(string)")},
                                  {"environment", Optional("map(string)", true)},
                                  {"working_dir", Optional("string", true)},
                                  {"timeout", Optional("string")},
                                  {"triggers", Optional("map(string)", true)},
                                  {"stdout", Computed("string")},
                                  {"stderr", Computed("string")},
                                  {"exit_code", Computed("number")}});
  }

  Diagnostics Validate(const Value& config) const override {
    Value command = Get(config, "command");
    if (command.IsSequence() && command.AsList().empty()) {
      return Error("Empty command", "command needs at least the program to run.");
    }
    Value timeout = Get(config, "timeout");
    if (timeout.IsString() && !base::ParseDuration(timeout.AsString())) {
      return Error("Invalid timeout", "\"" + timeout.AsString() +
                                          "\" is not a duration: use e.g. \"30s\" or \"5m\".");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::Rerun; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    ProcessResult run;
    Diagnostics diags = Run(ctx, planned, GetStringList(planned, "command"), run);
    if (diags.HasErrors()) return {{}, diags};
    Value state = With(planned, "id", Value::String(base::HexEncode(env_.random->Bytes(8))));
    state = With(state, "stdout", Value::String(run.stdout_text));
    state = With(state, "stderr", Value::String(run.stderr_text));
    state = With(state, "exit_code", Value::Number(run.exit_code));
    return {Normalize(CachedSchema(), state), {}};
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::vector<std::string> argv = GetStringList(prior, "destroy_command");
    if (argv.empty()) return {};
    ProcessResult run;
    return {Run(ctx, prior, argv, run)};
  }

 private:
  Diagnostics Run(const OperationContext& ctx, const Value& v,
                  const std::vector<std::string>& argv, ProcessResult& run) {
    ProcessSpec spec;
    spec.argv = argv;
    spec.env = GetStringMap(v, "environment");
    // The create's token, the same when a create interrupted by a crash runs again: a
    // command can use it to find what its first run made (Recovery() is Rerun).
    if (!ctx.idempotency_token.empty()) spec.env.emplace("STRATA_CREATE_TOKEN", ctx.idempotency_token);
    spec.working_dir = GetString(v, "working_dir");
    std::string timeout = GetString(v, "timeout");
    if (!timeout.empty()) {
      auto d = base::ParseDuration(timeout);
      if (!d) return Error("Invalid timeout", "\"" + timeout + "\" is not a duration.");
      spec.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    }
    ctx.Log(LogLevel::Info, "running: " + Quote(argv));
    run = env_.processes->Run(ctx, spec);
    if (run.ok()) return {};

    std::string what = "`" + Quote(argv) + "`";
    std::string detail;
    std::string summary = "Command failed";
    if (!run.started) {
      return Error("Command could not start", run.error);
    } else if (run.cancelled) {
      summary = "Command interrupted";
      detail = what + " was killed because the operation was cancelled.";
    } else if (run.timed_out) {
      summary = "Command timed out";
      detail = what + " was killed after " + (timeout.empty() ? "the deadline" : timeout) + ".";
    } else if (run.signal != 0) {
      detail = what + " was killed by signal " + std::to_string(run.signal) + ".";
    } else {
      detail = what + " exited with status " + std::to_string(run.exit_code) + ".";
    }
    std::string tail = LastLines(run.combined, kOutputLines);
    if (!tail.empty()) detail += " Last lines of its output:\n" + tail;
    return Error(summary, detail);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewExec(BuiltinEnv env) {
  return std::make_unique<Exec>(std::move(env));
}

}  // namespace strata
