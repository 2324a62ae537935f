#pragma once
// Reports operations that take long: every `interval`, each operation still running gets a
// "Still creating... [1m10s elapsed]" event. One thread for the whole apply.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "engine/core/applier.h"

namespace strata {

class ProgressTicker {
 public:
  using Clock = std::chrono::steady_clock;

  ProgressTicker(std::chrono::milliseconds interval, std::function<void(const ApplyEvent&)> emit);
  ~ProgressTicker();
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

  //! Registers a running operation; returns its start time.
  Clock::time_point Begin(const std::string& address, state::OperationAction operation, const std::string& id);
  void End(const std::string& address);

 private:
  struct Running {
    state::OperationAction operation;
    std::string id;
    Clock::time_point start;
    Clock::time_point last_report;
  };
  void Loop();

  std::chrono::milliseconds interval_;
  std::function<void(const ApplyEvent&)> emit_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::map<std::string, Running> running_;
  std::thread thread_;
};

}  // namespace strata
