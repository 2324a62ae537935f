#include "providers/aws/signing/credentials.h"

namespace strata::aws {

std::string MaskSecret(std::string_view secret) {
  if (secret.size() < 16) return "****";
  return "****" + std::string(secret.substr(secret.size() - 4));
}

std::string Credentials::Describe() const {
  std::string out = "access key " + MaskSecret(access_key_id);
  if (!source.empty()) out += " from " + source;
  if (!session_token.empty() || expiration) {
    out += " (temporary";
    if (expiration) out += ", expires " + FormatRfc3339(*expiration);
    out += ")";
  }
  return out;
}

}  // namespace strata::aws
