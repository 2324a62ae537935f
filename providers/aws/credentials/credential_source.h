#pragma once
// One link of the credential chain. A source either finds credentials, has nothing
// to offer ("not found", with the reason shown if the whole chain comes up empty), or
// is configured but broken ("failed": the chain stops there, as the AWS CLI does).

#include <memory>
#include <optional>
#include <string>

#include "providers/aws/signing/credentials.h"

namespace strata::aws {

struct SourceResult {
  enum class Kind { Found, NotFound, Failed };
  Kind kind = Kind::NotFound;
  Credentials credentials;  //!< Found
  std::string reason;       //!< NotFound: why this source had nothing (no secrets)
  AwsError error;           //!< Failed

  static SourceResult Found(Credentials c) { return {Kind::Found, std::move(c), "", {}}; }
  static SourceResult NotFound(std::string why) { return {Kind::NotFound, {}, std::move(why), {}}; }
  static SourceResult Failed(AwsError e) { return {Kind::Failed, {}, "", std::move(e)}; }
};

class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  //! Short name for the "tried" list: "environment", "profile default (shared
  //! credentials file /home/u/.aws/credentials)", ...
  virtual std::string Name() const = 0;
  virtual SourceResult Resolve() = 0;
};

}  // namespace strata::aws
