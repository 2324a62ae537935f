// `strata output [STAGE] [NAME] [-json|-raw]`: a stage's outputs from state.

#include <ostream>

#include "engine/cli/state_session.h"
#include "engine/value/format.h"
#include "engine/value/json.h"

namespace strata::cli {
namespace {

struct OutputFlags {
  std::vector<std::string> args;
  bool json = false;
  bool raw = false;
};

void Run(const OutputFlags& flags, CommandContext& ctx) {
  StateSession session(ctx);
  if (!session.Open(state::StoreAccess::ReadOnly)) return;
  std::vector<std::string> rest = flags.args;
  std::string given;
  if (rest.size() == 2 || (rest.size() == 1 && session.IsStage(rest[0]))) {
    given = rest[0];
    rest.erase(rest.begin());
  }
  if (rest.size() > 1) return session.Error("Wrong arguments", "Usage: strata output [STAGE] [NAME] [-json|-raw]");
  if (flags.json && flags.raw) return session.Error("Conflicting flags", "-json and -raw cannot be used together.");
  auto stage = session.ResolveStage(given);
  if (!stage) return;
  std::string name = rest.empty() ? "" : rest[0];
  std::ostream& out = *ctx.out;

  if (name.empty() && !flags.json) {
    // Listing: no key needed, sensitive values are not shown.
    auto loaded = session.store().LoadStage(*stage, {.decrypt_secrets = false});
    if (!loaded.ok()) return session.Fail(loaded.status());
    if (!loaded->exists || loaded->serial == 0) {
      return session.Fail(session.store().LoadOutputs(*stage).status());
    }
    if (loaded->outputs.empty()) {
      return session.Warning("No outputs found", "Stage \"" + *stage + "\" has no outputs in its state.");
    }
    for (const auto& o : loaded->outputs) {
      out << FormatKey(o.name) << " = " << (o.sensitive ? "<sensitive>" : FormatValue(o.value)) << "\n";
    }
    return;
  }
  auto outputs = session.store().LoadOutputs(*stage);
  if (!outputs.ok()) return session.Fail(outputs.status());
  if (name.empty()) {  // -json
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [n, o] : *outputs) {
      j[n] = {{"sensitive", o.sensitive}, {"type", o.value.TypeName()}, {"value", ValueToExactJson(o.value)}};
    }
    // Numbers exactly, as Terraform's output -json prints them.
    out << DumpExactJson(j, 2) << "\n";
    return;
  }
  auto it = outputs->find(name);
  if (it == outputs->end()) {
    std::string names;
    for (const auto& [n, o] : *outputs) names += (names.empty() ? "" : ", ") + n;
    return session.Error("Output \"" + name + "\" not found",
                         "Stage \"" + *stage + "\" has no output \"" + name + "\"" +
                             (names.empty() ? " (it has none)" : " (it has: " + names + ")") +
                             ". Declare it in the stage's outputs and run `strata apply " + *stage + "`.");
  }
  const Value& v = it->second.value;
  if (flags.json) {
    out << DumpExactJson(ValueToExactJson(v), 2) << "\n";
  } else if (flags.raw) {
    if (v.IsString()) {
      out << v.AsString();
    } else if (v.IsNumber()) {
      out << FormatNumber(v.AsExactNumber());
    } else if (v.IsBool()) {
      out << (v.AsBool() ? "true" : "false");
    } else {
      return session.Error("Unsupported value for raw output",
                           "-raw prints only strings, numbers and booleans; \"" + name + "\" is a " + v.TypeName() +
                               ". Use -json instead.");
    }
  } else {
    FormatOptions options;
    options.reveal_sensitive = true;  // asked for by name, as Terraform does
    out << FormatValue(v, options) << "\n";
  }
}

}  // namespace

void AddOutputCommand(CLI::App& app, CommandContext& ctx) {
  auto flags = std::make_shared<OutputFlags>();
  auto* cmd = app.add_subcommand("output", "Show a stage's outputs from state: output [STAGE] [NAME]");
  cmd->add_option("args", flags->args, "The stage, then an output name");
  cmd->add_flag("--json", flags->json, "Print as JSON (all outputs, sensitive ones included)");
  cmd->add_flag("--raw", flags->raw, "Print a string, number or bool output without quotes, for scripts");
  cmd->callback([flags, &ctx] { Run(*flags, ctx); });
}

}  // namespace strata::cli
