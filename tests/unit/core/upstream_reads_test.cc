// What a stage read of earlier stages' outputs, and which of them changed since
// (engine/core/upstream_reads.h): digests by meaning, the recorder, the comparison.

#include "engine/core/upstream_reads.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

// Outputs of earlier stages, settable per test, with a serial per stage.
struct FakeOutputs : StageOutputSource {
  std::map<std::pair<std::string, std::string>, Value> values;
  std::map<std::string, int64_t> serials;

  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override {
    auto it = values.find({stage, output});
    if (it != values.end()) return it->second;
    error = "stage \"" + stage + "\" has no output \"" + output + "\"";
    return std::nullopt;
  }
  std::optional<int64_t> StageSerial(const std::string& stage) override {
    auto it = serials.find(stage);
    return it == serials.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
};

TEST(UpstreamValueDigestTest, ComparesValuesByMeaningAndIgnoresMarks) {
  Value a = Value::Object({{"host", Value::String("h")}, {"port", Value::Number(443)}});
  Value b = Value::Object({{"port", Value::Number(443)}, {"host", Value::String("h")}});
  EXPECT_EQ(UpstreamValueDigest(a), UpstreamValueDigest(b));
  EXPECT_EQ(UpstreamValueDigest(Value::String("s")), UpstreamValueDigest(Value::String("s").MarkSensitive()));
  EXPECT_NE(UpstreamValueDigest(Value::String("1")), UpstreamValueDigest(Value::Number(1)));
  EXPECT_NE(UpstreamValueDigest(a), UpstreamValueDigest(Value::Object({{"host", Value::String("h")}})));
  EXPECT_EQ(UpstreamValueDigest(Value::String("s")).size(), 64u);
  EXPECT_EQ(UpstreamValueDigest(Value::String("secret")).find("secret"), std::string::npos);
}

TEST(RecordingStageOutputsTest, RecordsWhatItAnsweredWithTheSerials) {
  FakeOutputs source;
  source.values[{"eks", "endpoint"}] = Value::String("https://a");
  source.values[{"eks", "token"}] = Value::String("t").MarkSensitive();
  source.serials["eks"] = 12;
  RecordingStageOutputs recorder(source);
  std::string error;
  EXPECT_EQ(recorder.ReadOutput("eks", "token", error), Value::String("t").MarkSensitive());
  EXPECT_TRUE(recorder.ReadOutput("eks", "endpoint", error));
  EXPECT_TRUE(recorder.ReadOutput("eks", "endpoint", error));
  EXPECT_FALSE(recorder.ReadOutput("eks", "missing", error));
  EXPECT_EQ(recorder.StageSerial("eks"), 12);
  std::vector<state::UpstreamRead> expected{
      {"eks", "endpoint", 12, UpstreamValueDigest(Value::String("https://a")), false},
      {"eks", "token", 12, UpstreamValueDigest(Value::String("t")), true}};
  EXPECT_EQ(recorder.Reads(), expected);
}

TEST(ChangedUpstreamOutputsTest, NamesChangedAndUnreadableOutputsOnly) {
  FakeOutputs now;
  now.values[{"eks", "same"}] = Value::String("x");
  now.values[{"eks", "changed"}] = Value::String("new");
  now.values[{"eks", "token"}] = Value::String("new").MarkSensitive();
  now.values[{"eks", "later"}] = Value::Unknown();
  now.serials["eks"] = 14;
  std::vector<state::UpstreamRead> recorded{
      {"eks", "changed", 12, UpstreamValueDigest(Value::String("old")), false},
      {"eks", "gone", 12, UpstreamValueDigest(Value::String("old")), false},
      {"eks", "later", 12, UpstreamValueDigest(Value::String("old")), false},
      {"eks", "same", 12, UpstreamValueDigest(Value::String("x")), false},
      {"eks", "token", 12, UpstreamValueDigest(Value::String("old")), true}};
  std::vector<UpstreamOutputChange> changes = ChangedUpstreamOutputs(recorded, now);
  std::vector<UpstreamOutputChange> expected{{"eks", "changed", false, 12, 14, ""},
                                             {"eks", "gone", false, 12, 14, "stage \"eks\" has no output \"gone\""},
                                             {"eks", "token", true, 12, 14, ""}};
  EXPECT_EQ(changes, expected);
}

}  // namespace
}  // namespace strata
