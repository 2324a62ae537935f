#pragma once
// Retries with exponential backoff and full jitter, bounded by a retry count and the
// operation's deadline. Sleep and randomness go through Clock and RandomSource.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "providers/aws/core/clock.h"
#include "providers/aws/core/result.h"

namespace strata::aws {

//! Backoff shape. Attempt n (0-based retry number) sleeps a uniform random duration in
//! [0, min(max_delay, base_delay * 2^n)) — "full jitter".
struct RetryOptions {
  int max_retries = 8;  //!< retries after the first attempt (0: no retry)
  Duration base_delay{200};
  Duration max_delay{20000};
};

//! Decides whether an error the default classification does not retry should be
//! retried anyway (e.g. IAM eventual consistency).
using RetryPredicate = std::function<bool(const AwsError&)>;

//! Retries errors whose code is `code` and, when `message_contains` is not empty,
//! whose message contains it. Example: RetryOnError("InvalidParameterException",
//! "role cannot be assumed") for EKS just after the role was created.
RetryPredicate RetryOnError(std::string code, std::string message_contains = "");

//! Per-call settings.
struct CallOptions {
  //! The operation must finish by then: no attempt starts and no backoff sleeps past it,
  //! and each attempt's HTTP timeout is capped by the time left.
  std::optional<TimePoint> deadline;
  //! Extra retry conditions on top of throttling / 5xx / connection errors.
  std::vector<RetryPredicate> retry_also;
  //! Overrides RetryOptions::max_retries for this call.
  std::optional<int> max_retries;
  //! Polled before every attempt and after every sleep; true stops with "Cancelled".
  std::function<bool()> cancelled;
  //! Send without credentials or signature (STS AssumeRoleWithWebIdentity).
  bool unsigned_request = false;
  //! False for a call that is not idempotent (a create whose API takes no client token):
  //! once an attempt's outcome is unknown (AwsError::outcome_unknown) it is not sent again,
  //! since a second attempt could make a second object. Throttling and refused connections,
  //! which prove nothing was done, are still retried.
  bool retry_unknown_outcome = true;
};

//! True when `error` should be retried: its own classification or any extra predicate.
bool ShouldRetry(const AwsError& error, const std::vector<RetryPredicate>& retry_also);

//! The full-jitter delay before retry number `retry` (0-based).
Duration BackoffDelay(int retry, const RetryOptions& options, RandomSource& random);

//! Runs `attempt` until it succeeds, fails with a non-retryable error, the retries are
//! used up, the deadline would be passed, or the call is cancelled. `attempt` gets the
//! 1-based attempt number. The last error is returned, its message noting why retrying
//! stopped when that was not a non-retryable error. `attempts_made` (optional) receives
//! the number of attempts.
template <typename T>
Result<T> RunWithRetries(const std::function<Result<T>(int attempt)>& attempt,
                         const RetryOptions& options, const CallOptions& call, Clock& clock,
                         RandomSource& random, int* attempts_made = nullptr);

// --- implementation -------------------------------------------------------------

namespace retry_internal {
//! Shared, non-template part of the loop: decides whether and how long to wait before
//! the next attempt. Returns nullopt to stop (and annotates `error`).
std::optional<Duration> NextDelay(int attempts_so_far, AwsError& error, const RetryOptions& options,
                                  const CallOptions& call, Clock& clock, RandomSource& random);
//! An error if the call is cancelled or its deadline has passed, else nullopt.
std::optional<AwsError> CheckStop(const CallOptions& call, Clock& clock, int attempts_so_far);
}  // namespace retry_internal

template <typename T>
Result<T> RunWithRetries(const std::function<Result<T>(int attempt)>& attempt,
                         const RetryOptions& options, const CallOptions& call, Clock& clock,
                         RandomSource& random, int* attempts_made) {
  int attempts = 0;
  bool outcome_unknown = false;  // some attempt may have taken effect
  for (;;) {
    if (auto stop = retry_internal::CheckStop(call, clock, attempts)) {
      if (attempts_made) *attempts_made = attempts;
      stop->outcome_unknown = outcome_unknown;
      return *stop;
    }
    ++attempts;
    Result<T> result = attempt(attempts);
    if (result.ok()) {
      if (attempts_made) *attempts_made = attempts;
      return result;
    }
    AwsError error = std::move(result).error();
    outcome_unknown = outcome_unknown || error.outcome_unknown;
    error.outcome_unknown = outcome_unknown;
    auto delay = retry_internal::NextDelay(attempts, error, options, call, clock, random);
    if (!delay) {
      if (attempts_made) *attempts_made = attempts;
      return error;
    }
    clock.SleepFor(*delay);
  }
}

}  // namespace strata::aws
