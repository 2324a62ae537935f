// strata pipeline plan|apply|destroy: every stage of the project (or a slice of them) in
// dependency order — a destroy in reverse — each through the engine's StageRun as `plan`,
// `apply` and `destroy` run one stage, at most -stage-parallelism stages side by side, no
// stage started after one failed, and a table of what each stage did at the end.
//
//   pipeline plan [-out DIR]   later stages read the planned outputs of earlier ones (known
//                              values known, the rest unknown); -out saves DIR/<stage>.plan
//   pipeline apply [DIR]       plans and applies stage by stage, asking for each stage with
//                              changes unless -auto-approve; with DIR, applies exactly its
//                              saved plans, after checking that none is stale
//   pipeline destroy           the same with destroy plans, the last stage first
#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "engine/cli/apply_view.h"
#include "engine/cli/approval.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/json_ui.h"
#include "engine/cli/pipeline_view.h"
#include "engine/cli/run_session.h"
#include "engine/cli/wiring.h"
#include "engine/core/pipeline.h"
#include "engine/core/planned_stage_outputs.h"
#include "engine/core/stage_consumers.h"
#include "engine/core/stored_stage_outputs.h"
#include "engine/plan/file/plan_file.h"
#include "engine/plan/render_human.h"
#include "engine/plan/rules.h"
#include "engine/plan/upstream_notes.h"

namespace strata::cli {
namespace {

enum class PipelineVerb { Plan, Apply, Destroy };

constexpr const char* kSavedPlanSuffix = ".plan";

struct PipelineArgs {
  PipelineVerb verb = PipelineVerb::Plan;
  StageSlice slice;
  int stage_parallelism = 1;
  int parallelism = 10;
  bool refresh = true;
  bool destroy = false;  // pipeline plan -destroy
  bool force = false;
  bool auto_approve = false;
  bool json = false;
  bool detailed_exitcode = false;
  std::string out;       // pipeline plan -out DIR
  std::string plan_dir;  // pipeline apply DIR
  LockFlags lock;
};

// One stage's run: its own store connection (stages may run side by side, and a connection
// serves one thread), where it reads ${stage.S.X}, and the StageRun holding its lock.
struct OpenedStage {
  std::unique_ptr<state::StateStore> store;
  std::unique_ptr<StageOutputSource> outputs;  // null: the pipeline's shared source
  std::unique_ptr<StageRun> run;                // after the store: its lock is released first
  std::optional<Plan> saved;                    // pipeline apply DIR: the stage's saved plan
  std::string saved_file;
};

// Where one stage's text and messages go: `ui` under -json, else `out`.
struct StageOutput {
  std::ostream& out;
  JsonUi* ui;
};

class PipelineRunner {
 public:
  PipelineRunner(const PipelineArgs& args, CommandContext& ctx, RunSession& session)
      : args_(args), ctx_(ctx), session_(session), clock_(UiClock()) {}

  void Run();

 private:
  bool Destroying() const {
    if (saved_mode_) return *saved_mode_ == PlanMode::Destroy;
    return args_.verb == PipelineVerb::Destroy || (args_.verb == PipelineVerb::Plan && args_.destroy);
  }
  std::string Operation() const {
    if (args_.verb == PipelineVerb::Plan) return "plan";
    return Destroying() ? "destroy" : "apply";
  }
  const ProjectConfig& project() { return session_.project().project(); }
  const std::string& environment() { return session_.state().environment(); }
  bool Report(Diagnostics& diags) {
    bool errors = ctx_.Report(diags, &session_.project().sources());
    diags = Diagnostics();
    return errors;
  }

  bool ReadSavedPlans(std::vector<std::string>& selected);
  bool PrepareOutDir();
  std::unique_ptr<OpenedStage> OpenStage(const std::string& stage, StageOutputSource* shared, Diagnostics& diags);
  bool RunStage(const std::string& stage);
  std::optional<Plan> PlanStage(const std::string& stage, OpenedStage& opened, const StageOutput& to, Diagnostics& diags);
  bool KeepPlan(const std::string& stage, const Plan& plan, const StageOutput& to, Diagnostics& diags);
  bool Approve(const std::string& stage, bool destroy, const StageOutput& to, Diagnostics& diags);
  bool ApplyStage(OpenedStage& opened, const Plan& plan, const StageOutput& to, StageReport& report, Diagnostics& diags);
  bool PlanAndApply(const std::string& stage, OpenedStage& opened, const StageOutput& to, StageReport& report,
                    Diagnostics& diags);
  bool ForceDestroyPlan(const std::string& stage, OpenedStage& opened);

  const PipelineArgs& args_;
  CommandContext& ctx_;
  RunSession& session_;
  std::unique_ptr<base::Clock> clock_;
  std::optional<StagePipeline> pipeline_;
  std::vector<std::string> selected_;
  std::vector<StageReport> reports_;
  std::map<std::string, std::unique_ptr<OpenedStage>> opened_;  // pipeline apply DIR: opened up front
  std::optional<PlanMode> saved_mode_;
  std::chrono::milliseconds lock_timeout_{0};
  // pipeline plan: state, under planned_. A destroy reads the outputs of stages never applied
  // (or destroyed already) as unknown: a stage left half-built still goes.
  std::unique_ptr<StageOutputSource> stored_outputs_;
  std::unique_ptr<PlannedStageOutputs> planned_;
  std::mutex console_;        // whole stage blocks, prompts and diagnostics
  std::mutex opened_mutex_;   // opened_ and the destroy plans made so far
  std::set<std::string> planned_destroys_;
  std::atomic<bool> any_changes_{false};
};

bool PipelineRunner::ReadSavedPlans(std::vector<std::string>& selected) {
  std::string dir = ResolvePath(ctx_, args_.plan_dir);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    session_.state().Error("No such plan directory",
                           fmt::format("{} is not a directory. Make one with `strata pipeline plan -out {}`.",
                                       args_.plan_dir, args_.plan_dir));
    return false;
  }
  std::map<std::string, std::pair<Plan, std::string>> plans;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != kSavedPlanSuffix) continue;
    std::string file = (std::filesystem::path(args_.plan_dir) / entry.path().filename()).string();
    auto plan = ReadSavedPlan(ctx_, project(), file);
    if (!plan.ok()) {
      session_.state().Fail(plan.status());
      return false;
    }
    if (std::find(pipeline_->order.begin(), pipeline_->order.end(), plan->stage) == pipeline_->order.end()) {
      session_.state().Error("Saved plan for an unknown stage",
                             fmt::format("{} is a plan for stage \"{}\", which the project does not have. Remove it, "
                                         "or make the plans again with `strata pipeline plan -out {}`.",
                                         file, plan->stage, args_.plan_dir));
      return false;
    }
    if (saved_mode_ && (*saved_mode_ == PlanMode::Destroy) != (plan->mode == PlanMode::Destroy)) {
      session_.state().Error("Saved plans of both kinds",
                             fmt::format("{} holds destroy plans and other plans: a pipeline applies one kind, in one "
                                         "order. Make the plans again with `strata pipeline plan -out {}`.",
                                         args_.plan_dir, args_.plan_dir));
      return false;
    }
    saved_mode_ = plan->mode;
    std::string stage = plan->stage;
    plans.emplace(std::move(stage), std::make_pair(std::move(*plan), file));
  }
  if (plans.empty()) {
    session_.state().Error("No saved plans",
                           fmt::format("{} holds no saved plan (*.plan). Make them with `strata pipeline plan -out {}`.",
                                       args_.plan_dir, args_.plan_dir));
    return false;
  }
  Diagnostics diags;
  auto chosen = SelectStages(*pipeline_, args_.slice, Destroying(), diags);
  if (!chosen) return !Report(diags);
  for (const std::string& stage : *chosen) {
    if (plans.count(stage)) selected.push_back(stage);
  }
  // Every plan is checked before any is applied: a stale one stops the pipeline before it starts.
  Diagnostics stale;
  for (const std::string& stage : selected) {
    Diagnostics opening;  // StageRun::Open gives up on any error gathered before it
    auto opened = OpenStage(stage, nullptr, opening);
    if (!opened) {
      Report(stale);
      Report(opening);
      return false;
    }
    auto& [plan, file] = plans.at(stage);
    opened->run->CheckSavedPlan(plan, file, stale);
    opened->saved = std::move(plan);
    opened->saved_file = file;
    opened_[stage] = std::move(opened);
  }
  if (stale.HasErrors()) {
    stale.Error("Pipeline not applied",
                fmt::format("Nothing was applied: every saved plan in {} must still fit its stage. Make them again "
                            "with `strata pipeline plan -out {}`, review, and apply the new ones.",
                            args_.plan_dir, args_.plan_dir));
    Report(stale);
    return false;
  }
  return true;
}

// -out DIR: made if missing; the *.plan files of an earlier pipeline plan are removed, so
// that `pipeline apply DIR` applies exactly this plan's stages.
bool PipelineRunner::PrepareOutDir() {
  std::string dir = ResolvePath(ctx_, args_.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    session_.state().Error("Cannot write the plans",
                           fmt::format("-out {}: the directory could not be made ({}).", args_.out, ec.message()));
    return false;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == kSavedPlanSuffix) std::filesystem::remove(entry.path(), ec);
  }
  return true;
}

std::unique_ptr<OpenedStage> PipelineRunner::OpenStage(const std::string& stage, StageOutputSource* shared,
                                                       Diagnostics& diags) {
  auto opened = std::make_unique<OpenedStage>();
  auto store = OpenProjectStore(project(), environment());
  if (!store.ok()) {
    diags.Add(store.status().ToDiagnostic());
    return nullptr;
  }
  opened->store = std::move(*store);
  StageOutputSource* outputs = shared;
  if (!outputs) {
    // Its own reader of ${stage.S.X}: it sees what the stages before it applied.
    auto reader = OpenProjectStore(project(), environment());
    if (!reader.ok()) {
      diags.Add(reader.status().ToDiagnostic());
      return nullptr;
    }
    opened->outputs = std::make_unique<StoredStageOutputs>(std::move(*reader), Destroying());
    outputs = opened->outputs.get();
  }
  StageRunContext context;
  context.engine = &session_.project().engine();
  context.project = &project();
  context.store = opened->store.get();
  context.providers = &CompiledProviders();
  context.stage_outputs = outputs;
  context.stop = &Interrupts().stop;
  context.keys = session_.project().Keys();
  std::string operation = args_.verb == PipelineVerb::Plan ? "plan" : Operation();
  opened->run = StageRun::Open(context, stage, "pipeline " + operation, lock_timeout_, diags);
  if (!opened->run) return nullptr;
  return opened;
}

// pipeline plan -destroy plans the readers of a stage before it, without destroying them:
// the stage's own plan may go ahead when every applied reader is planned to go too.
bool PipelineRunner::ForceDestroyPlan(const std::string& stage, OpenedStage& opened) {
  if (args_.force) return true;
  if (args_.verb != PipelineVerb::Plan) return false;
  std::vector<std::string> readers =
      AppliedReadersOf(session_.project().engine(), project(), *opened.store, stage);
  std::lock_guard lock(opened_mutex_);
  for (const std::string& r : readers) {
    if (!planned_destroys_.count(r)) return false;
  }
  return true;
}

std::optional<Plan> PipelineRunner::PlanStage(const std::string& stage, OpenedStage& opened, const StageOutput& to,
                                              Diagnostics& diags) {
  StagePlanOptions options;
  options.mode = Destroying() ? PlanMode::Destroy : PlanMode::Normal;
  options.refresh = args_.refresh;
  options.variables = VariableFlags{}.ToInputs(ctx_.WorkingDir(), diags);  // STRATA_VAR_*
  options.parallelism = args_.parallelism;
  options.force = Destroying() && ForceDestroyPlan(stage, opened);
  std::mutex progress;
  if (!to.ui) {
    options.progress = [&to, &progress](const std::string& address, const std::string& message) {
      std::lock_guard lock(progress);
      to.out << address << ": " << message << "\n";
    };
  }
  PlanOutcome outcome = opened.run->MakePlan(options, diags);
  if (!to.ui && !opened.run->prior().resources.empty()) to.out << "\n";
  if (outcome.plan.errored || diags.HasErrors()) return std::nullopt;
  if (to.ui) {
    to.ui->Plan(outcome.plan);
  } else {
    HumanRenderOptions render{ctx_.Color(), &session_.project().engine().schemas()};
    to.out << RenderDriftHuman(outcome.plan, render) << RenderUpstreamNotesHuman(outcome.plan, render)
           << RenderPlanHuman(outcome.plan, render);
  }
  return std::move(outcome.plan);
}

// pipeline plan: what later stages read of it, and -out's file.
bool PipelineRunner::KeepPlan(const std::string& stage, const Plan& plan, const StageOutput& to, Diagnostics& diags) {
  if (plan.mode == PlanMode::Destroy) {
    std::lock_guard lock(opened_mutex_);
    planned_destroys_.insert(stage);
  } else {
    planned_->Add(plan);
  }
  if (plan.HasChanges()) any_changes_ = true;
  if (args_.out.empty()) return true;
  std::string file = (std::filesystem::path(args_.out) / (stage + kSavedPlanSuffix)).string();
  auto ring = LoadProjectKeyRing(project());
  state::StateStatus written =
      ring.ok() ? WritePlanFile(ResolvePath(ctx_, file), plan, *ring, state::StateEnvironment::System()) : ring.status();
  if (!written.ok()) {
    diags.Add(written.ToDiagnostic());
    return false;
  }
  if (!to.ui) to.out << "\nSaved the plan to: " << file << "\n";
  return true;
}

// Asks before applying a stage's plan, with the stage's text so far printed first.
bool PipelineRunner::Approve(const std::string& stage, bool destroy, const StageOutput& to, Diagnostics& diags) {
  std::lock_guard lock(console_);
  if (auto* held = dynamic_cast<std::ostringstream*>(&to.out)) {
    *ctx_.out << held->str();
    held->str("");
  }
  Report(diags);
  return Confirm(ctx_, session_.state(), StageLabelFor(stage, environment()), destroy);
}

bool PipelineRunner::ApplyStage(OpenedStage& opened, const Plan& plan, const StageOutput& to, StageReport& report,
                                Diagnostics& diags) {
  bool destroy = plan.mode == PlanMode::Destroy;
  std::unique_ptr<ApplyReporter> view;
  if (to.ui) view = std::make_unique<JsonApplyView>(*to.ui);
  else view = std::make_unique<ApplyView>(to.out, ctx_.Color());
  StageApplyOptions options;
  options.parallelism = args_.parallelism;
  options.on_event = [&view](const ApplyEvent& e) { view->Event(e); };
  ApplyOutcome outcome = opened.run->Apply(plan, options, diags);
  view->Summary(outcome, destroy, plan);
  report.add = outcome.added;
  report.change = outcome.changed;
  report.destroy = outcome.destroyed;
  bool ok = outcome.failed.empty() && !outcome.interrupted && outcome.remaining.empty() && !diags.HasErrors();
  report.result = ok ? (destroy ? "destroyed" : "applied") : "failed";
  return ok;
}

bool PipelineRunner::PlanAndApply(const std::string& stage, OpenedStage& opened, const StageOutput& to,
                                  StageReport& report, Diagnostics& diags) {
  std::optional<Plan> plan = opened.saved;
  if (plan) {
    if (!to.ui) to.out << "Applying the saved plan " << opened.saved_file << "\n\n";
  } else {
    plan = PlanStage(stage, opened, to, diags);
    if (!plan) return false;
  }
  PlanCounts counts = CountChanges(plan->changes);
  report.add = counts.add;
  report.change = counts.change;
  report.destroy = counts.destroy;
  if (args_.verb == PipelineVerb::Plan) {
    if (!KeepPlan(stage, *plan, to, diags)) return false;
    report.result = plan->HasChanges() ? "planned" : "no changes";
    return true;
  }
  // A saved plan was reviewed when it was made; -json has no room for a prompt (checked).
  bool ask = !opened.saved && !to.ui && plan->HasChanges() && !args_.auto_approve;
  if (ask && !Approve(stage, plan->mode == PlanMode::Destroy, to, diags)) {
    report = StageReport{stage, "cancelled", true};  // nothing was changed
    return false;
  }
  if (!ask && !to.ui && !plan->HasChanges()) to.out << "\n";
  return ApplyStage(opened, *plan, to, report, diags);
}

bool PipelineRunner::RunStage(const std::string& stage) {
  size_t index = std::find(selected_.begin(), selected_.end(), stage) - selected_.begin();
  StageReport& report = reports_[index];
  report.ran = true;
  auto start = clock_->Now();
  std::unique_ptr<JsonUi> ui;
  if (ctx_.events) ui = ctx_.events->ForStage(stage);
  // One after the other, a stage prints as it goes; side by side, each stage's lines are
  // held and printed together when it ends.
  std::ostringstream held;
  std::ostream& out = args_.stage_parallelism > 1 ? held : *ctx_.out;
  if (ui) {
    StageStartEvent(*ui, stage, Operation());
  } else {
    std::string where = environment() == state::kDefaultEnvironment ? "" : ", environment " + environment();
    out << fmt::format("{}Stage {} ({} of {}){}{}\n\n", ctx_.Color() ? "\x1b[1m" : "", stage, index + 1, selected_.size(),
                       where, ctx_.Color() ? "\x1b[0m" : "");
  }
  Diagnostics diags;
  std::unique_ptr<OpenedStage> opened;
  {
    std::lock_guard lock(opened_mutex_);
    if (auto it = opened_.find(stage); it != opened_.end()) opened = std::move(it->second);
  }
  if (!opened) opened = OpenStage(stage, planned_.get(), diags);
  bool ok = opened && PlanAndApply(stage, *opened, StageOutput{out, ui.get()}, report, diags);
  if (!ok && report.result != "cancelled") report.result = "failed";
  opened.reset();  // the stage's lock
  report.duration = std::chrono::duration_cast<std::chrono::milliseconds>(clock_->Now() - start);
  std::lock_guard lock(console_);
  if (ui) {
    ui->Diagnostics(diags.SortedByPosition(), &session_.project().sources());
    if (diags.HasErrors()) ctx_.exit_code = 1;
    StageCompleteEvent(*ui, report);
  } else {
    *ctx_.out << held.str() << "\n";
    ctx_.out->flush();
    Report(diags);
  }
  return ok;
}

void PipelineRunner::Run() {
  Diagnostics diags;
  pipeline_ = LoadStagePipeline(session_.project().engine(), project(), diags);
  if (!pipeline_) {
    Report(diags);
    return;
  }
  auto timeout = session_.state().ParseLockTimeout(args_.lock);
  if (!timeout) return;
  lock_timeout_ = *timeout;
  if (args_.stage_parallelism < 1) {
    session_.state().Error("Invalid -stage-parallelism",
                           fmt::format("-stage-parallelism={}: give at least 1 (stages at once).", args_.stage_parallelism));
    return;
  }
  bool saved = args_.verb == PipelineVerb::Apply && !args_.plan_dir.empty();
  if (ctx_.events && args_.verb != PipelineVerb::Plan && !saved && !args_.auto_approve) {
    session_.state().Error("No confirmation possible",
                           "-json needs -auto-approve (or a directory of saved plans): a confirmation cannot be asked "
                           "for in a stream of JSON messages.");
    return;
  }
  if (saved) {
    if (!ReadSavedPlans(selected_)) return;
  } else {
    auto chosen = SelectStages(*pipeline_, args_.slice, Destroying(), diags);
    if (!chosen) {
      Report(diags);
      return;
    }
    selected_ = *chosen;
  }
  if (args_.verb == PipelineVerb::Plan) {
    if (!args_.out.empty() && !PrepareOutDir()) return;
    auto store = OpenProjectStore(project(), environment());
    if (!store.ok()) {
      session_.state().Fail(store.status());
      return;
    }
    stored_outputs_ = std::make_unique<StoredStageOutputs>(std::move(*store), Destroying());
    planned_ = std::make_unique<PlannedStageOutputs>(*stored_outputs_);
  }
  reports_.resize(selected_.size());
  for (size_t i = 0; i < selected_.size(); ++i) reports_[i].stage = selected_[i];
  if (ctx_.events) {
    PipelineStartEvent(*ctx_.events, Operation(), selected_);
  } else {
    std::string names;
    for (const std::string& s : selected_) names += (names.empty() ? "" : ", ") + s;
    *ctx_.out << fmt::format("Pipeline {}: {}\n\n", Operation(), names);
  }
  PipelineWalkOptions walk;
  walk.stage_parallelism = args_.stage_parallelism;
  walk.stop = &Interrupts().stop;
  std::vector<StageStatus> status;
  {
    std::optional<GracefulStopScope> graceful;
    if (args_.verb != PipelineVerb::Plan) graceful.emplace();
    status = WalkStages(*pipeline_, selected_, Destroying(), walk, [this](const std::string& s) { return RunStage(s); });
  }
  opened_.clear();  // stages a failure left unapplied: their locks
  bool failed = false;
  for (size_t i = 0; i < status.size(); ++i) failed = failed || status[i] != StageStatus::Succeeded;
  if (ctx_.events) {
    PipelineSummaryEvent(*ctx_.events, Operation(), reports_);
  } else {
    *ctx_.out << RenderPipelineSummary(Operation(), reports_);
    if (!failed && args_.verb == PipelineVerb::Plan && !args_.out.empty()) {
      *ctx_.out << fmt::format("\nSaved one plan per stage to {}. To perform exactly these actions, run:\n"
                               "    strata pipeline apply {}\n",
                               args_.out, args_.out);
    }
  }
  if (failed) {
    ctx_.exit_code = 1;
    if (Interrupts().stop && Interrupts().signal != 0) ctx_.exit_code = 128 + Interrupts().signal;
  } else if (args_.verb == PipelineVerb::Plan && args_.detailed_exitcode && any_changes_) {
    ctx_.exit_code = 2;
  }
}

void RunPipeline(const PipelineArgs& args, CommandContext& ctx) {
  std::optional<JsonEventsScope> events;
  if (args.json) {
    ctx.global.json_events = true;
    events.emplace(ctx);
  }
  RunSession session(ctx);
  if (!session.OpenProject()) return;
  PipelineRunner(args, ctx, session).Run();
}

void AddPipelineFlags(CLI::App* cmd, PipelineArgs& args) {
  cmd->add_option("--target-stage", args.slice.stages, "Run only this stage (repeatable)")
      ->option_text("STAGE")
      ->allow_extra_args(false);
  cmd->add_option("--from", args.slice.from, "Start at this stage (in the apply order)")->option_text("STAGE");
  cmd->add_option("--to", args.slice.to, "Stop after this stage (in the apply order)")->option_text("STAGE");
  cmd->add_option("--stage-parallelism", args.stage_parallelism,
                  "Run at most N stages at once; only stages that do not read from each other run side by side")
      ->default_val(1);
  cmd->add_option("--parallelism", args.parallelism, "At most N provider operations at once within a stage")
      ->default_val(10);
  cmd->add_option("--refresh", args.refresh, "Read every object from its provider first (default true)")
      ->option_text("BOOL")
      ->default_val(true);
  cmd->add_flag("--json", args.json, "Print one JSON message per line (Terraform's -json UI, with pipeline events)");
  args.lock.AddTo(cmd);
}

}  // namespace

void AddPipelineCommand(CLI::App& app, CommandContext& ctx) {
  auto* pipeline = app.add_subcommand("pipeline", "Plan, apply or destroy every stage of the project, in dependency order");
  pipeline->require_subcommand(1);

  auto plan = std::make_shared<PipelineArgs>();
  auto* pcmd = pipeline->add_subcommand("plan", "Plan every stage; later stages see earlier stages' planned outputs");
  AddPipelineFlags(pcmd, *plan);
  pcmd->add_option("--out", plan->out, "Save one plan per stage in DIR (DIR/<stage>.plan) for `pipeline apply DIR`")
      ->option_text("DIR");
  pcmd->add_flag("--destroy", plan->destroy, "Plan to destroy every stage, the last stage first");
  pcmd->add_flag("--detailed-exitcode", plan->detailed_exitcode,
                 "Exit 0 when no stage changes, 1 on errors, 2 when some stage has changes");
  pcmd->callback([plan, &ctx] { RunPipeline(*plan, ctx); });

  auto apply = std::make_shared<PipelineArgs>();
  apply->verb = PipelineVerb::Apply;
  auto* acmd = pipeline->add_subcommand("apply", "Plan and apply every stage in order, or apply the saved plans in DIR");
  acmd->add_option("dir", apply->plan_dir, "A directory of saved plans from `pipeline plan -out DIR`");
  AddPipelineFlags(acmd, *apply);
  acmd->add_flag("--auto-approve", apply->auto_approve, "Apply each stage without asking for confirmation");
  acmd->callback([apply, &ctx] { RunPipeline(*apply, ctx); });

  auto destroy = std::make_shared<PipelineArgs>();
  destroy->verb = PipelineVerb::Destroy;
  auto* dcmd = pipeline->add_subcommand("destroy", "Destroy every stage, the last stage first");
  AddPipelineFlags(dcmd, *destroy);
  dcmd->add_flag("--auto-approve", destroy->auto_approve, "Destroy each stage without asking for confirmation");
  dcmd->add_flag("--force", destroy->force, "Destroy a stage although applied stages outside the slice read it");
  dcmd->callback([destroy, &ctx] { RunPipeline(*destroy, ctx); });
}

}  // namespace strata::cli
