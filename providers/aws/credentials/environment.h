#pragma once
// Environment: the seam through which the credential chain reads environment
// variables, files and the home directory. Tests use MapEnvironment.

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace strata::aws {

//! Read-only access to the process environment and the file system.
//! Implementations must be thread-safe.
class Environment {
 public:
  virtual ~Environment() = default;
  //! The variable's value; nullopt when unset. An empty value counts as set.
  virtual std::optional<std::string> GetEnv(const std::string& name) const = 0;
  //! The whole file; nullopt when it does not exist or cannot be read.
  virtual std::optional<std::string> ReadFile(const std::string& path) const = 0;
  //! The user's home directory ($HOME, else the password database); may be empty.
  virtual std::string HomeDir() const = 0;

  //! GetEnv, treating an empty value as unset.
  std::optional<std::string> GetNonEmptyEnv(const std::string& name) const;
  //! Expands a leading "~/" to HomeDir().
  std::string ExpandHome(const std::string& path) const;
};

//! The real process environment (getenv, std::ifstream, getpwuid_r).
class SystemEnvironment final : public Environment {
 public:
  std::optional<std::string> GetEnv(const std::string& name) const override;
  std::optional<std::string> ReadFile(const std::string& path) const override;
  std::string HomeDir() const override;
};

//! An in-memory environment for tests: variables and files set by the test.
class MapEnvironment final : public Environment {
 public:
  void SetEnv(const std::string& name, std::string value);
  void UnsetEnv(const std::string& name);
  void SetFile(const std::string& path, std::string contents);
  void SetHome(std::string home);

  std::optional<std::string> GetEnv(const std::string& name) const override;
  std::optional<std::string> ReadFile(const std::string& path) const override;
  std::string HomeDir() const override;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> env_;
  std::map<std::string, std::string> files_;
  std::string home_ = "/home/test";
};

}  // namespace strata::aws
