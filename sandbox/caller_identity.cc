#include "sandbox/caller_identity.h"

#include <cstdint>

#include "engine/base/random.h"
#include "engine/base/time_format.h"
#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

// The sandbox user's unique id: "AIDA" + 17 characters drawn from a seed derived from the
// account, so that it is the same in every call and every process.
std::string SandboxUserId(const std::string& account) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  uint64_t hash = 1469598103934665603ULL;  // FNV-1a
  for (char c : "strata-sandbox-user:" + account) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  base::SeededRandom draw(hash);
  std::string id = "AIDA";
  for (int i = 0; i < 17; ++i) id += kAlphabet[draw.Uniform(32)];
  return id;
}

std::string StringMember(const Json& doc, const char* name) {
  auto it = doc.find(name);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string SandboxUserArn(const std::string& account) { return "arn:aws:iam::" + account + ":user/sandbox"; }

CallerIdentity SandboxUserIdentity(const std::string& account) {
  return CallerIdentity{SandboxUserArn(account), SandboxUserId(account), account};
}

std::optional<AccessKeyRecord> LookUpAccessKey(const World& world, const SandboxSettings& settings,
                                               const std::string& access_key) {
  if (access_key == settings.access_key) {
    return AccessKeyRecord{settings.secret_key, "", std::nullopt, SandboxUserIdentity(settings.account_id)};
  }
  std::optional<Json> doc = world.Get(kStsCredentialsKind, access_key);
  if (!doc || StringMember(*doc, "SecretAccessKey").empty()) return std::nullopt;
  AccessKeyRecord record;
  record.secret_access_key = StringMember(*doc, "SecretAccessKey");
  record.session_token = StringMember(*doc, "SessionToken");
  std::chrono::system_clock::time_point expiration;
  if (base::ParseRfc3339(StringMember(*doc, "Expiration"), &expiration)) record.expiration = expiration;
  record.identity.arn = StringMember(*doc, "Arn");
  record.identity.user_id = StringMember(*doc, "UserId");
  record.identity.account = settings.account_id;
  // Credentials recorded before user ids were kept: the sandbox user's own session.
  if (record.identity.user_id.empty() && record.identity.arn == SandboxUserArn(settings.account_id))
    record.identity.user_id = SandboxUserIdentity(settings.account_id).user_id;
  return record;
}

std::string CanonicalArn(const std::string& arn) {
  // arn:<partition>:sts::<account>:assumed-role/<role>/<session>
  const std::string marker = ":assumed-role/";
  size_t at = arn.find(marker);
  if (arn.rfind("arn:", 0) != 0 || at == std::string::npos) return arn;
  size_t partition_end = arn.find(':', 4);
  std::string partition = arn.substr(4, partition_end - 4);
  size_t account_start = arn.find("::", partition_end);
  if (account_start == std::string::npos || account_start > at) return arn;
  std::string account = arn.substr(account_start + 2, at - account_start - 2);
  std::string rest = arn.substr(at + marker.size());
  std::string role = rest.substr(0, rest.find('/'));
  return "arn:" + partition + ":iam::" + account + ":role/" + role;
}

}  // namespace strata::sandbox
