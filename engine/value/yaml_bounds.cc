#include "engine/value/yaml_bounds.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

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

}  // namespace

BoundedYaml ParseBoundedYaml(const std::string& text) {
  BoundedYaml out;
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
