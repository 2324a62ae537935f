// The plan's notes about earlier stages' outputs changed since the stage was last applied
// (engine/plan/upstream_notes.h).

#include "engine/plan/upstream_notes.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(UpstreamNotesTest, NothingWithoutChanges) {
  Plan plan;
  plan.stage = "addons";
  EXPECT_EQ(RenderUpstreamNotesHuman(plan), "");
}

TEST(UpstreamNotesTest, OneLineEachWithWhatIsKnownOfTheSerials) {
  Plan plan;
  plan.stage = "addons";
  plan.upstream_changes = {{"eks", "cluster_endpoint", false, 12, 14, ""},
                           {"eks", "token", true, 12, 0, ""},
                           {"eks", "ca", false, 0, 14, ""},
                           {"net", "old", false, 0, 0, "stage \"net\" has no output \"old\""}};
  EXPECT_EQ(RenderUpstreamNotesHuman(plan),
            "Note: stage \"eks\" output \"cluster_endpoint\" has changed since stage \"addons\" was last applied "
            "(eks serial 12 \u2192 14).\n"
            "Note: stage \"eks\" output \"token\" (sensitive value) has changed since stage \"addons\" was last "
            "applied (eks serial 12 then).\n"
            "Note: stage \"eks\" output \"ca\" has changed since stage \"addons\" was last applied (eks serial 14 "
            "now).\n"
            "Note: stage \"net\" output \"old\" can no longer be read since stage \"addons\" was last applied: stage "
            "\"net\" has no output \"old\"\n"
            "\n");
}

TEST(UpstreamNotesTest, ColorOnlyMakesNoteBold) {
  Plan plan;
  plan.stage = "addons";
  plan.upstream_changes = {{"eks", "x", false, 1, 2, ""}};
  HumanRenderOptions color;
  color.color = true;
  EXPECT_EQ(RenderUpstreamNotesHuman(plan, color),
            "\x1b[1mNote:\x1b[0m stage \"eks\" output \"x\" has changed since stage \"addons\" was last applied (eks "
            "serial 1 \u2192 2).\n\n");
}

}  // namespace
}  // namespace strata
