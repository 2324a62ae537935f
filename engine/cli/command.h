#pragma once
// What every CLI verb shares: the global flags, the output streams and the exit code.
// One file per verb (validate.cc, console.cc, state_*.cc ...) defines an Add<Verb>Command
// function; commands.cc calls them all. A verb parses its flags into a typed struct, calls
// the engine, and renders through a view. It never reaches into state or providers itself.

#include <iosfwd>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/diag/diagnostic.h"
#include "engine/diag/source.h"

namespace strata::cli {

struct GlobalOptions {
  std::string chdir;    // -chdir=DIR: run as if started in DIR
  bool no_color = false;
  bool json = false;    // -json: machine-readable output (diagnostics included)
  bool sandbox = false; // -sandbox: run against a sandbox cloud started for the command
  bool json_events = false;  // -json-events (plan, apply, destroy): Terraform's machine-readable UI
  std::string env;      // -env=NAME: the environment, over STRATA_ENV and `env select`
};

class JsonUi;  // json_ui.h

struct CommandContext {
  GlobalOptions global;
  std::istream* in = nullptr;
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  bool stdout_is_tty = false;
  bool stdin_is_tty = false;
  int exit_code = 0;
  //! Under -json-events: the stream diagnostics and progress go to (json_ui.h).
  JsonUi* events = nullptr;

  //! -json or -json-events: stdout is for machines.
  bool MachineReadable() const { return global.json || global.json_events; }
  bool Color() const { return !global.no_color && stdout_is_tty && !MachineReadable(); }
  //! The directory commands work in (-chdir applied).
  std::string WorkingDir() const;
  //! Prints diagnostics (human or JSON per -json, or messages of the -json-events stream)
  //! to stderr (JSON goes to stdout);
  //! sets exit_code 1 when any is an error. Returns true when there were errors.
  bool Report(const Diagnostics& diags, const SourceRegistry* sources = nullptr);
};

// Each verb's registration (defined in its own file).
void AddVersionCommand(CLI::App& app, CommandContext& ctx);
void AddInitCommand(CLI::App& app, CommandContext& ctx);
void AddValidateCommand(CLI::App& app, CommandContext& ctx);
void AddLintCommand(CLI::App& app, CommandContext& ctx);       // lint.cc
void AddConsoleCommand(CLI::App& app, CommandContext& ctx);
void AddGraphCommand(CLI::App& app, CommandContext& ctx);
void AddStateCommand(CLI::App& app, CommandContext& ctx);        // state.cc (+ state_*.cc)
void AddOutputCommand(CLI::App& app, CommandContext& ctx);       // output.cc
void AddForceUnlockCommand(CLI::App& app, CommandContext& ctx);  // force_unlock.cc
void AddPlanCommand(CLI::App& app, CommandContext& ctx);         // plan.cc
void AddApplyCommand(CLI::App& app, CommandContext& ctx);        // apply.cc: apply and destroy
void AddRefreshCommand(CLI::App& app, CommandContext& ctx);      // refresh.cc
void AddShowCommand(CLI::App& app, CommandContext& ctx);         // show.cc
void AddSandboxCommand(CLI::App& app, CommandContext& ctx);      // sandbox.cc
void AddProvidersCommand(CLI::App& app, CommandContext& ctx);    // providers.cc
void AddImportCommand(CLI::App& app, CommandContext& ctx);       // import.cc
void AddEnvCommand(CLI::App& app, CommandContext& ctx);          // env.cc
void AddPipelineCommand(CLI::App& app, CommandContext& ctx);     // pipeline.cc

//! Registers every verb on `app`.
void AddAllCommands(CLI::App& app, CommandContext& ctx);

//! Runs the CLI: rewrites Terraform-style single-dash flags (-chdir=x, -no-color) to CLI11's
//! double-dash form, parses, runs the chosen verb. Returns the process exit code.
int RunCli(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace strata::cli
