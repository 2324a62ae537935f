#include "engine/value/yaml_bounds.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <sstream>

#include "engine/value/limits.h"

namespace strata {
namespace {

YamlProblem TooDeep(const YAML::Mark& mark) {
  return {YamlProblem::Kind::TooDeep,
          fmt::format("mappings and lists nest more than {} levels deep here (or an anchor is used inside "
                      "itself, as in &a [*a]); flatten the structure",
                      kMaxNestingDepth),
          mark};
}

// Counts every value a consumer's walk would reach, aliases expanded, and stops at the first
// bound crossed. Recursion is safe: the depth is checked before going one level deeper.
class BoundsWalk {
 public:
  bool Walk(const YAML::Node& node, int depth) {
    if (++values_ > kMaxYamlValues) {
      problem_ = {YamlProblem::Kind::TooManyValues,
                  fmt::format("the document stands for more than {} values once its aliases (*name) are expanded; "
                              "use fewer or smaller aliases",
                              kMaxYamlValues),
                  node.Mark()};
      return false;
    }
    if (!node.IsSequence() && !node.IsMap()) return true;
    if (depth >= kMaxNestingDepth) {
      problem_ = TooDeep(node.Mark());
      return false;
    }
    for (const auto& item : node) {
      bool ok = node.IsMap() ? Walk(item.first, depth + 1) && Walk(item.second, depth + 1) : Walk(item, depth + 1);
      if (!ok) return false;
    }
    return true;
  }
  std::optional<YamlProblem>& problem() { return problem_; }

 private:
  size_t values_ = 0;
  std::optional<YamlProblem> problem_;
};

// Counts the parser's events without building anything, and stops it once there are more
// than any YAML text of this length can produce. yaml-cpp 0.7 has inputs on which it never
// stops emitting events (",-" alone: an endless run of block sequences, gigabytes in
// seconds); every well-formed event consumes at least one character of the text, so a
// bound proportional to the length is generous for real documents and ends those loops.
class EventBudget : public YAML::EventHandler {
 public:
  explicit EventBudget(size_t budget) : budget_(budget) {}
  struct Exceeded {
    YAML::Mark mark;
  };

  void OnDocumentStart(const YAML::Mark& mark) override { Count(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { Count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { Count(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    Count(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Count(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Count(mark);
  }
  void OnMapEnd() override {}

 private:
  void Count(const YAML::Mark& mark) {
    if (++events_ > budget_) throw Exceeded{mark};
  }
  size_t budget_;
  size_t events_ = 0;
};

// Runs the parser over `text` with an event budget; a problem when the parser does not end.
std::optional<YamlProblem> CheckParserEnds(const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  EventBudget budget(4 * text.size() + 64);
  try {
    while (parser.HandleNextDocument(budget)) {
    }
  } catch (const EventBudget::Exceeded& e) {
    return YamlProblem{YamlProblem::Kind::Syntax,
                       "the YAML parser cannot make sense of the text from here (it would read it as an "
                       "endless run of nodes); check the indentation and the flow brackets ([ ] { } ,) "
                       "around this place",
                       e.mark};
  } catch (const YAML::Exception&) {
    // A syntax error: LoadAll below reports it in yaml-cpp's own words.
  }
  return std::nullopt;
}

}  // namespace

BoundedYaml ParseBoundedYaml(const std::string& text) {
  BoundedYaml out;
  if (auto problem = CheckParserEnds(text)) {
    out.problem = std::move(problem);
    return out;
  }
  try {
    out.documents = YAML::LoadAll(text);
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard, deeper than ours
    out.problem = TooDeep(e.mark);
    return out;
  } catch (const YAML::Exception& e) {
    out.problem = YamlProblem{YamlProblem::Kind::Syntax, e.msg, e.mark};
    return out;
  }
  BoundsWalk walk;  // one budget for all the documents of the text
  for (const auto& doc : out.documents) {
    if (!walk.Walk(doc, 0)) {
      out.problem = std::move(walk.problem());
      out.documents.clear();
      break;
    }
  }
  return out;
}

}  // namespace strata
