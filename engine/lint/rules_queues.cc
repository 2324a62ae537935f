// sqs-queue-outside-match: a queue made in the stage of a ConfigMap that tells runners which
// queues to serve (studio-go-runner's QUEUE_MATCH, a regular expression over queue names),
// whose name the pattern does not match: the runners never take its work (the reference's
// client wrote to sqs_kmutch, outside ^sqs_StudioML_.*$).
#include <fmt/format.h>
#include <re2/re2.h>

#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

bool QueueMatchKey(const std::string& key) { return LowerCase(key).find("queue_match") != std::string::npos; }

}  // namespace

void CheckQueues(LintContext& ctx) {
  for (const KubeObject& o : ctx.model().objects) {
    if (o.typed || o.kind != "ConfigMap") continue;
    const Value* data = ValueAt(o.object, {"data"});
    if (!data || !data->IsMapping()) continue;
    for (const auto& [key, value] : data->AsMap()) {
      if (!QueueMatchKey(key) || !value.IsString()) continue;
      RE2 pattern(value.AsString(), RE2::Quiet);
      if (!pattern.ok()) continue;
      for (const Instance* queue : ctx.model().OfType("aws_sqs_queue", o.instance->component)) {
        if (queue->stage != o.instance->stage) continue;  // other stages' queues serve others
        auto name = StringAt(*queue->value, {"name"});
        if (!name || RE2::PartialMatch(*name, pattern)) continue;
        ctx.Report("sqs-queue-outside-match", *queue, {"name"},
                   fmt::format("queue {} is outside {} of ConfigMap {}/{} ({}): the runners never take its work", *name,
                               key, o.ns, o.name, value.AsString()));
      }
    }
  }
}

}  // namespace strata::lint
