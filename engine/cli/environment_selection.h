#pragma once
// Which environment a command works in (README "Environments"): -env NAME, else the
// STRATA_ENV variable, else the one `strata env select` recorded in the project's
// .strata/environment, else `default`.

#include <optional>
#include <string>

#include "engine/cli/command.h"

namespace strata::cli {

struct EnvironmentChoice {
  std::string name;
  std::string source;  // "-env", "STRATA_ENV", ".strata/environment" or "default"
};

//! The environment for a command in the project at `root_dir`. A name that breaks the
//! naming rules is an error naming where it came from (reported to `diags`, nullopt).
//! Whether it exists is the state store's to say when it opens.
std::optional<EnvironmentChoice> ChooseEnvironment(const CommandContext& ctx, const std::string& root_dir,
                                                   Diagnostics& diags);

//! `<root>/.strata/environment`, where `strata env select` records its choice.
std::string SelectedEnvironmentFile(const std::string& root_dir);

//! Records `name` as the project's selected environment (`default` removes the record).
//! Returns an error message, or empty.
std::string RecordSelectedEnvironment(const std::string& root_dir, const std::string& name);

}  // namespace strata::cli
