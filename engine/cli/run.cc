#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "engine/cli/command.h"
#include "engine/cli/json_ui.h"
#include "engine/diag/render.h"

namespace strata::cli {
namespace {

// Terraform writes long flags with one dash (-chdir=DIR, -no-color, -var k=v); CLI11 wants
// two. Single-letter flags and values after "--" are left alone.
std::vector<std::string> NormalizeFlags(int argc, const char* const* argv) {
  std::vector<std::string> args;
  bool passthrough = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") passthrough = true;
    if (!passthrough && a.size() > 2 && a[0] == '-' && a[1] != '-' && !std::isdigit(static_cast<unsigned char>(a[1]))) {
      a = "-" + a;
    }
    args.push_back(std::move(a));
  }
  return args;
}

}  // namespace

std::string CommandContext::WorkingDir() const {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::current_path(ec);
  if (global.chdir.empty()) return base.string();
  std::filesystem::path p(global.chdir);
  return (p.is_absolute() ? p : base / p).lexically_normal().string();
}

bool CommandContext::Report(const Diagnostics& diags, const SourceRegistry* sources) {
  if (diags.HasErrors()) exit_code = 1;
  if (diags.empty()) return false;
  Diagnostics shown = diags.SortedByPosition();
  if (events) {
    events->Diagnostics(shown, sources);
  } else if (global.json) {
    *out << DiagnosticsToJson(shown, sources).dump(2) << "\n";
  } else {
    RenderOptions options;
    options.color = !global.no_color && isatty(STDERR_FILENO);
    options.display_root = WorkingDir();
    *err << "\n" << RenderDiagnostics(shown, sources, options);
  }
  return diags.HasErrors();
}

int RunCli(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  CommandContext ctx;
  ctx.in = &in;
  ctx.out = &out;
  ctx.err = &err;
  ctx.stdout_is_tty = isatty(STDOUT_FILENO);
  ctx.stdin_is_tty = isatty(STDIN_FILENO);

  CLI::App app{"Strata: staged, declarative infrastructure for AWS and Kubernetes", "strata"};
  app.require_subcommand(1);
  app.fallthrough();
  app.add_option("--chdir", ctx.global.chdir, "Switch to DIR before running the command")->option_text("DIR");
  app.add_flag("--no-color", ctx.global.no_color, "Disable colour in the output");
  app.add_option("--env", ctx.global.env,
                 "The environment to work in (over STRATA_ENV and `strata env select`; default: default)")
      ->option_text("NAME");
  app.add_flag("--sandbox", ctx.global.sandbox,
               "Run plan/apply/destroy/refresh against a sandbox cloud on 127.0.0.1 (the project's world)");
  AddAllCommands(app, ctx);

  std::vector<std::string> args = NormalizeFlags(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp& e) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return 0;
    }
    err << "Error: " << e.what() << "\n\nRun \"strata --help\" for the list of commands and flags.\n";
    return 1;
  } catch (const DiagnosticsError& e) {
    ctx.Report(e.diags);
    return 1;
  }
  return ctx.exit_code;
}

}  // namespace strata::cli
