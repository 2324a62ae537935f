#include "providers/aws/client/retry.h"

#include <algorithm>
#include <cmath>

namespace strata::aws {

RetryPredicate RetryOnError(std::string code, std::string message_contains) {
  return [code = std::move(code), needle = std::move(message_contains)](const AwsError& e) {
    return e.code == code && (needle.empty() || e.message.find(needle) != std::string::npos);
  };
}

bool ShouldRetry(const AwsError& error, const std::vector<RetryPredicate>& retry_also) {
  if (error.retryable) return true;
  if (error.source == ErrorSource::Client) return false;
  return std::any_of(retry_also.begin(), retry_also.end(),
                     [&](const RetryPredicate& p) { return p && p(error); });
}

Duration BackoffDelay(int retry, const RetryOptions& options, RandomSource& random) {
  double cap = double(options.max_delay.count());
  double exp = double(options.base_delay.count()) * std::pow(2.0, std::min(retry, 30));
  double ceiling = std::min(cap, exp);
  double unit = std::clamp(random.NextUnit(), 0.0, 1.0);
  return Duration(static_cast<Duration::rep>(unit * ceiling));
}

namespace retry_internal {

std::optional<AwsError> CheckStop(const CallOptions& call, Clock& clock, int attempts_so_far) {
  if (call.cancelled && call.cancelled())
    return AwsError::Client(error_codes::kCancelled, "the operation was cancelled");
  if (call.deadline && clock.Now() >= *call.deadline) {
    AwsError e = AwsError::Client(error_codes::kDeadlineExceeded,
                                  "the operation's deadline passed after " +
                                      std::to_string(attempts_so_far) + " attempt(s)");
    return e;
  }
  return std::nullopt;
}

std::optional<Duration> NextDelay(int attempts_so_far, AwsError& error, const RetryOptions& options,
                                  const CallOptions& call, Clock& clock, RandomSource& random) {
  if (!ShouldRetry(error, call.retry_also)) return std::nullopt;
  if (error.outcome_unknown && !call.retry_unknown_outcome) {
    error.message += " (not sent again: the call is not idempotent and may have taken effect)";
    return std::nullopt;
  }
  int max_retries = call.max_retries.value_or(options.max_retries);
  std::string suffix = " (gave up after " + std::to_string(attempts_so_far) + " attempt";
  suffix += attempts_so_far == 1 ? "" : "s";
  if (attempts_so_far > max_retries) {
    error.message += suffix + ": retry limit reached)";
    return std::nullopt;
  }
  Duration delay = BackoffDelay(attempts_so_far - 1, options, random);
  if (call.deadline && clock.Now() + delay >= *call.deadline) {
    error.message += suffix + ": deadline reached)";
    return std::nullopt;
  }
  if (call.cancelled && call.cancelled()) {
    error.message += suffix + ": cancelled)";
    return std::nullopt;
  }
  return delay;
}

}  // namespace retry_internal
}  // namespace strata::aws
