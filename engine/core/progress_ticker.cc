#include "engine/core/progress_ticker.h"

#include <vector>

namespace strata {

ProgressTicker::ProgressTicker(std::chrono::milliseconds interval, std::function<void(const ApplyEvent&)> emit)
    : interval_(interval), emit_(std::move(emit)) {
  if (emit_ && interval_.count() > 0) thread_ = std::thread([this] { Loop(); });
}

ProgressTicker::~ProgressTicker() {
  {
    std::lock_guard lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

ProgressTicker::Clock::time_point ProgressTicker::Begin(const std::string& address, state::OperationAction operation,
                                                        const std::string& id) {
  Clock::time_point now = Clock::now();
  std::lock_guard lock(mu_);
  running_[address] = Running{operation, id, now, now};
  return now;
}

void ProgressTicker::End(const std::string& address) {
  std::lock_guard lock(mu_);
  running_.erase(address);
}

void ProgressTicker::Loop() {
  std::unique_lock lock(mu_);
  while (!done_) {
    cv_.wait_for(lock, interval_ / 4);
    if (done_) break;
    Clock::time_point now = Clock::now();
    std::vector<ApplyEvent> due;
    for (auto& [address, r] : running_) {
      if (now - r.last_report < interval_) continue;
      r.last_report = now;
      ApplyEvent e;
      e.kind = ApplyEvent::Kind::Progress;
      e.address = address;
      e.operation = r.operation;
      e.id = r.id;
      e.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(now - r.start);
      due.push_back(std::move(e));
    }
    lock.unlock();
    for (const ApplyEvent& e : due) emit_(e);
    lock.lock();
  }
}

}  // namespace strata
