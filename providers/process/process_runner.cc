#include "providers/process/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

extern char** environ;

namespace strata {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::vector<std::string> BuildEnvironment(const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> merged;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    merged[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [k, v] : extra) merged[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : merged) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

class PosixRunner : public ProcessRunner {
 public:
  ProcessResult Run(const OperationContext& ctx, const ProcessSpec& spec) override {
    ProcessResult result;
    if (spec.argv.empty()) {
      result.error = "the command is empty";
      return result;
    }
    int out_pipe[2], err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
      result.error = std::string("pipe: ") + std::strerror(errno);
      return result;
    }
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
      result.error = std::string("pipe: ") + std::strerror(errno);
      ::close(out_pipe[0]);
      ::close(out_pipe[1]);
      return result;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    if (!spec.working_dir.empty()) {
      posix_spawn_file_actions_addchdir_np(&actions, spec.working_dir.c_str());
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t empty, all;
    sigemptyset(&empty);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setsigdefault(&attr, &all);

    std::vector<std::string> args = spec.argv;
    std::vector<std::string> env = BuildEnvironment(spec.env);
    std::vector<char*> argv = CStrings(args);
    std::vector<char*> envp = CStrings(env);
    pid_t pid = -1;
    int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    if (rc != 0) {
      ::close(out_pipe[0]);
      ::close(err_pipe[0]);
      result.error = "cannot run \"" + spec.argv[0] + "\"" +
                     (spec.working_dir.empty() ? "" : " in " + spec.working_dir) + ": " +
                     std::strerror(rc);
      return result;
    }
    result.started = true;

    std::optional<SteadyClock::time_point> deadline = ctx.deadline;
    if (spec.timeout) {
      auto t = SteadyClock::now() + *spec.timeout;
      if (!deadline || t < *deadline) deadline = t;
    }

    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open_fds = 2;
    bool killed = false;
    SteadyClock::time_point killed_at{};
    char buffer[8192];
    const auto started_at = SteadyClock::now();
    auto next_progress = started_at + spec.progress_every;
    while (open_fds > 0) {
      if (SteadyClock::now() >= next_progress && !killed) {
        auto secs = std::chrono::duration_cast<std::chrono::seconds>(SteadyClock::now() - started_at);
        ctx.Progress("still running... (" + std::to_string(secs.count()) + "s elapsed)");
        next_progress += spec.progress_every;
      }
      if (!killed) {
        bool cancel = ctx.Cancelled();
        bool expired = deadline && SteadyClock::now() >= *deadline;
        if (cancel || expired) {
          result.cancelled = cancel;
          result.timed_out = !cancel;
          ::kill(-pid, SIGKILL);
          killed = true;
          killed_at = SteadyClock::now();
        }
      } else if (SteadyClock::now() - killed_at > std::chrono::seconds(1)) {
        break;  // a descendant left the group and keeps the pipes open: stop reading
      }
      int n = ::poll(fds, 2, 50);
      if (n < 0 && errno != EINTR) break;
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
        if (got > 0) {
          (i == 0 ? result.stdout_text : result.stderr_text).append(buffer, size_t(got));
          result.combined.append(buffer, size_t(got));
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
          ::close(fds[i].fd);
          fds[i].fd = -1;
          --open_fds;
        }
      }
    }
    for (auto& f : fds) {
      if (f.fd >= 0) ::close(f.fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
  }
};

}  // namespace

std::shared_ptr<ProcessRunner> PosixProcessRunner() { return std::make_shared<PosixRunner>(); }

ProcessResult FakeProcessRunner::Run(const OperationContext&, const ProcessSpec& spec) {
  {
    std::lock_guard lock(mu_);
    calls_.push_back(spec);
  }
  if (respond) return respond(spec);
  ProcessResult result;
  result.started = true;
  result.exit_code = 0;
  return result;
}

std::vector<ProcessSpec> FakeProcessRunner::Calls() const {
  std::lock_guard lock(mu_);
  return calls_;
}

}  // namespace strata
