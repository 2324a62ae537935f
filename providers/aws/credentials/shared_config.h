#pragma once
// The AWS shared configuration files: ~/.aws/credentials ("[name]" sections) and
// ~/.aws/config ("[default]" and "[profile name]" sections), as the AWS CLI reads them.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "providers/aws/credentials/environment.h"

namespace strata::aws {

//! One profile's settings: lower-case keys ("aws_access_key_id", "role_arn", ...).
using ProfileSettings = std::map<std::string, std::string>;
//! Profile name -> settings.
using ProfileMap = std::map<std::string, ProfileSettings>;

//! Parses an INI file in the AWS CLI dialect: "[section]", "key = value", comments
//! starting with '#' or ';' (whole-line, or after whitespace), indented continuation
//! lines (joined with '\n', as for nested "s3 =" blocks). With `config_file`, sections
//! are "default" or "profile NAME" (others, such as "sso-session x", are ignored) and
//! are returned under the bare profile name.
ProfileMap ParseProfileFile(std::string_view text, bool config_file);

//! Both shared files, merged per profile (the credentials file wins on a clash, as in
//! botocore). Missing files are simply empty.
struct SharedConfig {
  ProfileMap profiles;              //!< merged view
  ProfileMap credentials_profiles;  //!< the credentials file alone
  ProfileMap config_profiles;       //!< the config file alone
  std::string credentials_path;  //!< the paths actually consulted, for error messages
  std::string config_path;
  bool credentials_file_found = false;
  bool config_file_found = false;

  //! The profile's settings, or nullptr.
  const ProfileSettings* Find(const std::string& profile) const;
};

//! Loads ~/.aws/credentials and ~/.aws/config, honouring AWS_SHARED_CREDENTIALS_FILE
//! and AWS_CONFIG_FILE.
SharedConfig LoadSharedConfig(const Environment& env);

//! The value of `key` in `settings`, or nullopt (empty values count as absent).
std::optional<std::string> GetSetting(const ProfileSettings& settings, const std::string& key);

}  // namespace strata::aws
