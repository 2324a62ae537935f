#include "providers/aws/credentials/shared_config.h"

namespace strata::aws {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Strips an inline comment: '#' or ';' preceded by whitespace.
std::string_view StripInlineComment(std::string_view s) {
  for (size_t i = 1; i < s.size(); ++i)
    if ((s[i] == '#' || s[i] == ';') && (s[i - 1] == ' ' || s[i - 1] == '\t')) return s.substr(0, i);
  return s;
}

// Maps a section header to a profile name; empty when the section is not a profile.
std::string ProfileNameOf(std::string_view section, bool config_file) {
  section = Trim(section);
  if (!config_file) return std::string(section);
  if (section == "default") return "default";
  if (section.rfind("profile", 0) == 0 && section.size() > 7 &&
      (section[7] == ' ' || section[7] == '\t'))
    return std::string(Trim(section.substr(8)));
  return "";
}

}  // namespace

ProfileMap ParseProfileFile(std::string_view text, bool config_file) {
  ProfileMap profiles;
  ProfileSettings* current = nullptr;
  std::string last_key;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view raw = text.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    std::string_view line = Trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    bool indented = raw.front() == ' ' || raw.front() == '\t';
    if (line.front() == '[') {
      auto close = line.find(']');
      std::string name = close == std::string_view::npos
                             ? std::string()
                             : ProfileNameOf(line.substr(1, close - 1), config_file);
      current = name.empty() ? nullptr : &profiles[name];
      last_key.clear();
      continue;
    }
    if (current == nullptr) continue;
    if (indented && !last_key.empty()) {
      // Continuation line: a nested block ("s3 =\n  max_concurrent_requests = 10") or a
      // value continued on the next line.
      std::string& value = (*current)[last_key];
      if (!value.empty()) value += '\n';
      value.append(line);
      continue;
    }
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(Trim(line.substr(0, eq)));
    for (char& c : key)
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    (*current)[key] = std::string(Trim(StripInlineComment(line.substr(eq + 1))));
    last_key = key;
  }
  return profiles;
}

const ProfileSettings* SharedConfig::Find(const std::string& profile) const {
  auto it = profiles.find(profile);
  return it == profiles.end() ? nullptr : &it->second;
}

SharedConfig LoadSharedConfig(const Environment& env) {
  SharedConfig config;
  config.credentials_path = env.ExpandHome(
      env.GetNonEmptyEnv("AWS_SHARED_CREDENTIALS_FILE").value_or("~/.aws/credentials"));
  config.config_path =
      env.ExpandHome(env.GetNonEmptyEnv("AWS_CONFIG_FILE").value_or("~/.aws/config"));
  if (auto text = env.ReadFile(config.config_path)) {
    config.config_file_found = true;
    config.config_profiles = ParseProfileFile(*text, /*config_file=*/true);
    config.profiles = config.config_profiles;
  }
  if (auto text = env.ReadFile(config.credentials_path)) {
    config.credentials_file_found = true;
    config.credentials_profiles = ParseProfileFile(*text, /*config_file=*/false);
    for (auto& [name, settings] : config.credentials_profiles)
      for (auto& [key, value] : settings) config.profiles[name][key] = value;
  }
  return config;
}

std::optional<std::string> GetSetting(const ProfileSettings& settings, const std::string& key) {
  auto it = settings.find(key);
  if (it == settings.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

}  // namespace strata::aws
