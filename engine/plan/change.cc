#include "engine/plan/change.h"

#include <cctype>

#include "engine/value/format.h"

namespace strata {

bool IsReplace(Action action) {
  return action == Action::DeleteThenCreate || action == Action::CreateThenDelete;
}

std::vector<std::string> ActionJsonNames(Action action) {
  switch (action) {
    case Action::NoOp: return {"no-op"};
    case Action::Create: return {"create"};
    case Action::Read: return {"read"};
    case Action::Update: return {"update"};
    case Action::DeleteThenCreate: return {"delete", "create"};
    case Action::CreateThenDelete: return {"create", "delete"};
    case Action::Delete: return {"delete"};
  }
  return {};
}

const char* ActionReasonName(ActionReason reason) {
  switch (reason) {
    case ActionReason::None: return "";
    case ActionReason::ReplaceBecauseTainted: return "replace_because_tainted";
    case ActionReason::ReplaceByRequest: return "replace_by_request";
    case ActionReason::ReplaceBecauseCannotUpdate: return "replace_because_cannot_update";
    case ActionReason::DeleteBecauseNoResourceConfig: return "delete_because_no_resource_config";
    case ActionReason::DeleteBecauseWrongRepetition: return "delete_because_wrong_repetition";
    case ActionReason::DeleteBecauseCountIndex: return "delete_because_count_index";
    case ActionReason::DeleteBecauseEachKey: return "delete_because_each_key";
    case ActionReason::DeleteBecauseNoModule: return "delete_because_no_module";
    case ActionReason::ReadBecauseConfigUnknown: return "read_because_config_unknown";
    case ActionReason::ReadBecauseDependencyPending: return "read_because_dependency_pending";
    case ActionReason::RecreateBecauseGone: return "recreate_because_gone";
    case ActionReason::CreateAfterInterruption: return "create_after_interruption";
  }
  return "";
}

const char* PlanModeName(PlanMode mode) {
  switch (mode) {
    case PlanMode::Normal: return "normal";
    case PlanMode::Destroy: return "destroy";
    case PlanMode::RefreshOnly: return "refresh-only";
  }
  return "normal";
}

AttrPath AttrPath::Child(PathStep step) const {
  AttrPath p = *this;
  p.steps.push_back(std::move(step));
  return p;
}

bool AttrPath::IsPrefixOf(const AttrPath& other) const {
  if (steps.size() > other.steps.size()) return false;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!(steps[i] == other.steps[i])) return false;
  }
  return true;
}

std::string AttrPath::ToString() const {
  std::string out;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    switch (s.kind) {
      case PathStep::Kind::Attr:
        if (i > 0) out += ".";
        out += s.name;
        break;
      // Appended piece by piece: GCC 12 warns (-Wrestrict) on "[" + std::string at -O2/-O3.
      case PathStep::Kind::Key:
        out += '[';
        out += QuoteString(s.name);
        out += ']';
        break;
      case PathStep::Kind::Index:
        out += '[';
        out += std::to_string(s.index);
        out += ']';
        break;
    }
  }
  return out;
}

std::optional<AttrPath> AttrPath::Parse(const std::string& text) {
  AttrPath p;
  size_t i = 0;
  auto ident = [&]() -> std::optional<std::string> {
    size_t start = i;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '-')) ++i;
    if (i == start) return std::nullopt;
    return text.substr(start, i - start);
  };
  auto first = ident();
  if (!first) return std::nullopt;
  p.steps.push_back(PathStep::Attr(*first));
  while (i < text.size()) {
    if (text[i] == '.') {
      ++i;
      auto name = ident();
      if (!name) return std::nullopt;
      p.steps.push_back(PathStep::Attr(*name));
    } else if (text[i] == '[') {
      ++i;
      if (i < text.size() && text[i] == '"') {
        ++i;
        std::string key;
        while (i < text.size() && text[i] != '"') {
          if (text[i] == '\\' && i + 1 < text.size()) ++i;
          key += text[i++];
        }
        if (i >= text.size()) return std::nullopt;
        ++i;  // closing quote
        p.steps.push_back(PathStep::Key(key));
      } else {
        size_t start = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        if (i == start) return std::nullopt;
        p.steps.push_back(PathStep::Index(std::stoll(text.substr(start, i - start))));
      }
      if (i >= text.size() || text[i] != ']') return std::nullopt;
      ++i;
    } else {
      return std::nullopt;
    }
  }
  return p;
}

bool Plan::HasChanges() const {
  for (const auto& c : changes) {
    if (c.action != Action::NoOp) return true;
  }
  for (const auto& o : output_changes) {
    if (o.action != Action::NoOp) return true;
  }
  return mode == PlanMode::RefreshOnly && !drift.empty();
}

}  // namespace strata
