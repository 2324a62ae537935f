#include "providers/aws/credentials/environment.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "engine/base/file.h"

namespace strata::aws {

std::optional<std::string> Environment::GetNonEmptyEnv(const std::string& name) const {
  auto v = GetEnv(name);
  if (v && v->empty()) return std::nullopt;
  return v;
}

std::string Environment::ExpandHome(const std::string& path) const {
  if (path == "~") return HomeDir();
  if (path.rfind("~/", 0) == 0) return HomeDir() + path.substr(1);
  return path;
}

std::optional<std::string> SystemEnvironment::GetEnv(const std::string& name) const {
  const char* v = std::getenv(name.c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

std::optional<std::string> SystemEnvironment::ReadFile(const std::string& path) const { return base::ReadFile(path); }

std::string SystemEnvironment::HomeDir() const {
  if (auto home = GetNonEmptyEnv("HOME")) return *home;
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* result = nullptr;
  if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &result) == 0 && result != nullptr)
    return result->pw_dir;
  return "";
}

void MapEnvironment::SetEnv(const std::string& name, std::string value) {
  std::lock_guard lock(mu_);
  env_[name] = std::move(value);
}

void MapEnvironment::UnsetEnv(const std::string& name) {
  std::lock_guard lock(mu_);
  env_.erase(name);
}

void MapEnvironment::SetFile(const std::string& path, std::string contents) {
  std::lock_guard lock(mu_);
  files_[path] = std::move(contents);
}

void MapEnvironment::SetHome(std::string home) {
  std::lock_guard lock(mu_);
  home_ = std::move(home);
}

std::optional<std::string> MapEnvironment::GetEnv(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = env_.find(name);
  if (it == env_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> MapEnvironment::ReadFile(const std::string& path) const {
  std::lock_guard lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  return it->second;
}

std::string MapEnvironment::HomeDir() const {
  std::lock_guard lock(mu_);
  return home_;
}

}  // namespace strata::aws
