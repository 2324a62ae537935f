#pragma once
// AWS credentials and the provider interface every credential source implements.

#include <optional>
#include <string>
#include <string_view>

#include "providers/aws/core/clock.h"
#include "providers/aws/core/result.h"

namespace strata::aws {

//! An access key pair, with a session token and expiry for temporary credentials.
//! Never print the fields directly: use Describe(), which masks them.
struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;          //!< empty for long-term keys
  std::optional<TimePoint> expiration;  //!< nullopt: does not expire
  std::string source;                 //!< where they came from, e.g. "environment"

  bool HasKeys() const { return !access_key_id.empty() && !secret_access_key.empty(); }
  //! "access key ****MPLE from environment (temporary, expires 2024-...)" — safe to log.
  std::string Describe() const;
};

//! Masks a secret for display: "****" plus at most the last 4 characters, and only
//! when the value is long enough for that to reveal little (>= 16 characters).
std::string MaskSecret(std::string_view secret);

//! A source of credentials (a chain link, or the whole chain). Must be thread-safe.
class CredentialsProvider {
 public:
  virtual ~CredentialsProvider() = default;
  //! The current credentials, or an AwsError saying why there are none.
  virtual Result<Credentials> GetCredentials() = 0;
};

//! Fixed credentials (explicit provider settings, tests, the source of an AssumeRole).
class StaticCredentialsProvider final : public CredentialsProvider {
 public:
  explicit StaticCredentialsProvider(Credentials creds) : creds_(std::move(creds)) {}
  Result<Credentials> GetCredentials() override { return creds_; }

 private:
  Credentials creds_;
};

}  // namespace strata::aws
