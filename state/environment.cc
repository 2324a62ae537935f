#include "state/environment.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine/base/clock.h"
#include "engine/base/random.h"

namespace strata::state {
namespace {

class SystemEnvironment final : public StateEnvironment {
 public:
  int64_t NowMillis() override {
    using namespace std::chrono;
    return duration_cast<milliseconds>(clock_.Now().time_since_epoch()).count();
  }
  void SleepMillis(int64_t millis) override { clock_.SleepFor(std::chrono::milliseconds(millis)); }
  std::string RandomBytes(size_t n) override {
    return base::SystemRandom().Bytes(n);
  }
  std::string Hostname() override {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown-host";
    return buf;
  }
  std::string UserName() override {
    if (const char* u = std::getenv("USER"); u && *u) return u;
    if (const passwd* pw = getpwuid(getuid())) return pw->pw_name;
    return "uid" + std::to_string(getuid());
  }
  int64_t Pid() override { return static_cast<int64_t>(getpid()); }
  int64_t ProcessStartTime(int64_t pid) override {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return 0;
    // Field 2 (comm) may contain spaces and parentheses: parse from the last ')'.
    size_t close = line.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    // After comm, fields 3..22: starttime is the 20th of them.
    for (int i = 3; i <= 22; ++i) {
      if (!(rest >> field)) return 0;
    }
    try {
      return std::stoll(field);
    } catch (...) {
      return 0;
    }
  }
  ProcessLiveness CheckProcess(int64_t pid, int64_t start_time) override {
    if (pid <= 0) return ProcessLiveness::Unknown;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return ProcessLiveness::Gone;
    if (start_time != 0) {
      int64_t now_start = ProcessStartTime(pid);
      if (now_start != 0 && now_start != start_time) return ProcessLiveness::Gone;  // pid reused
    }
    return ProcessLiveness::Alive;
  }
  std::optional<std::string> Getenv(const std::string& name) override {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  }

 private:
  base::SystemClock clock_;
};

}  // namespace

StateEnvironment& StateEnvironment::System() {
  static SystemEnvironment env;
  return env;
}

std::string NewUuid(StateEnvironment& env) {
  return base::FormatUuidV4(env.RandomBytes(16));
}

}  // namespace strata::state
