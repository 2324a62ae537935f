#include "engine/cli/environment_selection.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "state/environments.h"

namespace strata::cli {

namespace fs = std::filesystem;

std::string SelectedEnvironmentFile(const std::string& root_dir) {
  return (fs::path(root_dir) / ".strata" / "environment").string();
}

namespace {

// The recorded selection: the file's first line without surrounding blanks, or nullopt.
std::optional<std::string> RecordedEnvironment(const std::string& root_dir) {
  std::ifstream in(SelectedEnvironmentFile(root_dir));
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  size_t begin = line.find_first_not_of(" \t\r");
  size_t end = line.find_last_not_of(" \t\r");
  if (begin == std::string::npos) return std::nullopt;
  return line.substr(begin, end - begin + 1);
}

}  // namespace

std::optional<EnvironmentChoice> ChooseEnvironment(const CommandContext& ctx, const std::string& root_dir,
                                                   Diagnostics& diags) {
  EnvironmentChoice choice{state::kDefaultEnvironment, "default"};
  const char* from_env = std::getenv("STRATA_ENV");
  if (!ctx.global.env.empty()) {
    choice = {ctx.global.env, "-env"};
  } else if (from_env && *from_env) {
    choice = {from_env, "STRATA_ENV"};
  } else if (auto recorded = RecordedEnvironment(root_dir)) {
    choice = {*recorded, SelectedEnvironmentFile(root_dir)};
  }
  if (std::string why = state::InvalidEnvironmentReason(choice.name); !why.empty()) {
    diags.Error("Invalid environment name",
                fmt::format("{} (from {}). Use a name such as prod or eu-west-1.", why, choice.source));
    return std::nullopt;
  }
  return choice;
}

std::string RecordSelectedEnvironment(const std::string& root_dir, const std::string& name) {
  std::string file = SelectedEnvironmentFile(root_dir);
  std::error_code ec;
  if (name == state::kDefaultEnvironment) {
    fs::remove(file, ec);
    return ec ? fmt::format("cannot remove {}: {}", file, ec.message()) : "";
  }
  fs::create_directories(fs::path(file).parent_path(), ec);
  std::ofstream out(file, std::ios::trunc);
  out << name << "\n";
  out.close();
  if (!out) return fmt::format("cannot write {}: check that the project directory is writable", file);
  return "";
}

}  // namespace strata::cli
