#include "sandbox/services/sts/sts_credentials.h"

#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox::sts {
namespace {

constexpr const char* kKeyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
constexpr const char* kSecretAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

TemporaryCredentials IssueCredentials(StsCall& call, std::chrono::seconds duration, const std::string& arn,
                                      const std::string& user_id) {
  TemporaryCredentials creds;
  creds.access_key_id = "ASIA" + call.world().RandomString(16, kKeyAlphabet);
  creds.secret_access_key = call.world().RandomString(40, kSecretAlphabet);
  // Real session tokens are long opaque base64 blobs; the length is what clients notice.
  creds.session_token = "IQoJb3JpZ2luX2VjE" + call.world().RandomString(300, kSecretAlphabet);
  creds.expiration =
      std::chrono::time_point_cast<std::chrono::seconds>(call.ctx.now) + duration;
  call.world().Put(kStsCredentialsKind, creds.access_key_id,
                   {{"AccessKeyId", creds.access_key_id},
                    {"SecretAccessKey", creds.secret_access_key},
                    {"SessionToken", creds.session_token},
                    {"Expiration", IsoTime(creds.expiration)},
                    {"Arn", arn},
                    {"UserId", user_id}});
  return creds;
}

void WriteCredentials(pugi::xml_node result, const TemporaryCredentials& credentials) {
  pugi::xml_node node = result.append_child("Credentials");
  AddText(node, "AccessKeyId", credentials.access_key_id);
  AddText(node, "SecretAccessKey", credentials.secret_access_key);
  AddText(node, "SessionToken", credentials.session_token);
  AddText(node, "Expiration", IsoTime(credentials.expiration));
}

}  // namespace strata::sandbox::sts
