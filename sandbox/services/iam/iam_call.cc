#include "sandbox/services/iam/iam_call.h"

namespace strata::sandbox::iam {

std::string NewUniqueId(World& world, const std::string& prefix) {
  return prefix + world.RandomString(17, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
}

std::string IamArn(const std::string& account, const std::string& type, const std::string& path,
                   const std::string& name) {
  return "arn:aws:iam::" + account + ":" + type + path + name;
}

}  // namespace strata::sandbox::iam
