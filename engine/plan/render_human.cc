#include "engine/plan/render_human.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/plan/block_shape.h"
#include "engine/plan/diff_lines.h"
#include "engine/plan/rules.h"
#include "engine/plan/string_diff.h"
#include "engine/value/format.h"

namespace strata {
namespace {

using plan_render::kBold;
using plan_render::kCyan;
using plan_render::kGreen;
using plan_render::kRed;
using plan_render::kReset;
using plan_render::kYellow;
using plan_render::HiddenNote;
using plan_render::Op;
using plan_render::Pad;

bool SameValue(const Value& a, const Value& b) {
  return a.IsWhollyKnown() && b.IsWhollyKnown() && a.ContainsSensitive() == b.ContainsSensitive() &&
         a.Equals(b);
}

Op OpFor(const Value& before, const Value& after) {
  if (before.IsNull()) return Op::Create;
  if (after.IsNull()) return Op::Delete;
  if (SameValue(before, after)) return Op::NoOp;
  return Op::Update;
}

// Terraform draws a value that has no type (an output, an attribute of type any such as
// terraform_data's input) from its JSON form, where a map is an object: its keys are quoted
// only when they are not identifiers and unchanged ones are counted as attributes. Strata
// keeps the value's map kind, so its maps are turned into objects for drawing.
Value MapsAsObjects(const Value& v) {
  if (v.IsMapping()) {
    ValueMap m;
    for (const auto& [k, e] : v.AsMap()) m.emplace(k, MapsAsObjects(e));
    return Value::Object(std::move(m)).MarkSensitive(v.IsSensitive());
  }
  if (v.IsSequence() && !v.AsList().empty()) {
    ValueList items;
    for (const auto& e : v.AsList()) items.push_back(MapsAsObjects(e));
    Value seq = v.kind() == ValueKind::List ? Value::List(std::move(items))
                : v.kind() == ValueKind::Set ? Value::Set(std::move(items))
                                             : Value::Tuple(std::move(items));
    return seq.MarkSensitive(v.IsSensitive());
  }
  return v;
}

// A resource's attributes with MapsAsObjects applied to those of type any (and, in a
// dynamic schema, to those it does not list). Without a schema nothing changes.
Value UntypedMapsAsObjects(const Value& object, const ResourceSchema* schema) {
  if (!schema || !object.IsMapping()) return object;
  ValueMap m = object.AsMap();
  for (auto& [k, v] : m) {
    auto it = schema->attributes.find(k);
    bool untyped = it == schema->attributes.end() ? schema->dynamic : it->second.type.kind() == Type::Kind::Any;
    if (untyped) v = MapsAsObjects(v);
  }
  return Value::Object(std::move(m)).MarkSensitive(object.IsSensitive());
}

//! Terraform always shows these attributes, changed or not.
bool IsIdentifying(const std::string& name) { return name == "id" || name == "name" || name == "tags"; }

// A value drawn as blocks: a known, non-sensitive list or set (of objects), or null (none).
bool DrawnAsBlocks(const Value& v) { return v.IsNull() || (v.IsSequence() && !v.IsUnknown() && !v.IsSensitive()); }

// One block of a member before and after: a list's blocks pair by position, a set's
// identical blocks pair with each other and the rest are removed and added.
struct BlockPair {
  Value before, after;
  int64_t index;
};

std::vector<BlockPair> PairBlocks(const Value& before, const Value& after, bool is_set) {
  const ValueList none;
  const ValueList& b = before.IsSequence() ? before.AsList() : none;
  const ValueList& a = after.IsSequence() ? after.AsList() : none;
  std::vector<BlockPair> pairs;
  if (!is_set) {
    for (size_t i = 0; i < std::max(b.size(), a.size()); ++i) {
      pairs.push_back({i < b.size() ? b[i] : Value(), i < a.size() ? a[i] : Value(), static_cast<int64_t>(i)});
    }
    return pairs;
  }
  std::vector<bool> matched(a.size(), false);
  for (size_t i = 0; i < b.size(); ++i) {
    size_t j = 0;
    while (j < a.size() && (matched[j] || !SameValue(b[i], a[j]))) ++j;
    if (j < a.size()) {
      matched[j] = true;
      pairs.push_back({b[i], a[j], static_cast<int64_t>(j)});
    } else {
      pairs.push_back({b[i], Value(), static_cast<int64_t>(i)});
    }
  }
  for (size_t j = 0; j < a.size(); ++j) {
    if (!matched[j]) pairs.push_back({Value(), a[j], static_cast<int64_t>(j)});
  }
  return pairs;
}

class Renderer {
 public:
  Renderer(const HumanRenderOptions& o, const std::vector<AttrPath>* forces) : o_(o), forces_(forces) {}

  std::string Color(const char* code, const std::string& s) const {
    return o_.color ? std::string(code) + s + kReset : s;
  }
  //! The two-column symbol of a line: "+ ", "- ", "~ " or "  ".
  std::string Sym(Op op) const { return plan_render::Symbol(op, o_.color); }

  //! A string value or change: plain, jsonencode(...) or a heredoc (string_diff.h).
  std::string String(const std::string* before, const std::string* after, Op op, int indent,
                     bool show_unchanged) const {
    return plan_render::RenderStringChange(before, after, op, indent, {o_.color, false, show_unchanged});
  }

  bool Forces(const AttrPath& path) const {
    if (!forces_) return false;
    return std::find(forces_->begin(), forces_->end(), path) != forces_->end();
  }

  //! A value shown whole, every element marked with `op` (a created or deleted collection, or
  //! an unchanged one). `indent` is the column of the symbol of the line it starts on.
  std::string Whole(const Value& v, Op op, int indent) const {
    if (v.IsSensitive()) return "(sensitive value)";
    if (v.IsUnknown()) return "(known after apply)";
    if (v.IsString()) {
      const std::string& s = v.AsString();
      Op side = op == Op::Update ? Op::NoOp : op;
      return String(side == Op::Create ? nullptr : &s, side == Op::Delete ? nullptr : &s, side, indent, true);
    }
    if (v.IsMapping()) {
      const auto& m = v.AsMap();
      bool is_map = v.kind() == ValueKind::Map;
      std::vector<std::pair<std::string, const Value*>> shown;
      for (const auto& [k, e] : m) {
        if (!is_map && e.IsNull()) continue;
        shown.emplace_back(is_map ? QuoteString(k) : FormatKey(k), &e);
      }
      if (shown.empty()) return "{}";
      size_t width = 0;
      for (const auto& s : shown) width = std::max(width, s.first.size());
      std::string out = "{\n";
      for (const auto& [k, e] : shown) {
        out += Pad(indent + 4) + Sym(op) + k + Pad(static_cast<int>(width - k.size())) + " = " +
               Whole(*e, op, indent + 4) + "\n";
      }
      return out + Pad(indent + 2) + "}";
    }
    if (v.IsSequence()) {
      const auto& items = v.AsList();
      if (items.empty()) return "[]";
      std::string out = "[\n";
      for (const auto& e : items) out += Pad(indent + 4) + Sym(op) + Whole(e, op, indent + 4) + ",\n";
      return out + Pad(indent + 2) + "]";
    }
    return FormatValue(v);
  }

  //! The right-hand side of a line whose symbol is at `indent`: `"a" -> "b"`, a nested
  //! diff, ... `show_null` adds " -> null" to deletions (not inside a deleted parent).
  std::string Rhs(const Value& before, const Value& after, Op op, int indent, const AttrPath& path,
                  bool show_null, bool show_unchanged) const {
    std::string null_suffix = show_null ? " -> null" : "";
    bool sensitive = before.IsSensitive() || after.IsSensitive();
    switch (op) {
      case Op::Create: return sensitive ? "(sensitive value)" : Whole(after, op, indent);
      case Op::Delete: return (sensitive ? "(sensitive value)" : Whole(before, op, indent)) + null_suffix;
      case Op::NoOp: return Whole(after, op, indent);
      case Op::Update: break;
    }
    if (sensitive) return "(sensitive value)";
    if (after.IsUnknown()) {
      return Whole(before, Op::Delete, indent) + " -> (known after apply)";
    }
    // Maps and objects compare alike, as do lists, tuples and sets (Value::Equals): a state
    // object read back from JSON may meet a config map.
    if (before.IsMapping() && after.IsMapping()) {
      return MappingDiff(before, after, indent, path, show_unchanged);
    }
    if (before.IsSequence() && after.IsSequence()) {
      return SequenceDiff(before, after, indent, path, show_unchanged);
    }
    if (before.IsString() && after.IsString()) {
      return String(&before.AsString(), &after.AsString(), Op::Update, indent, show_unchanged);
    }
    return Whole(before, Op::Delete, indent) + " -> " + Whole(after, Op::Create, indent);
  }

  //! One "name = value" line (or "value," for a sequence element when name is empty).
  std::string Line(const std::string& name, int width, const Value& before, const Value& after, Op op,
                   int indent, const AttrPath& path, bool show_null, bool element,
                   bool show_unchanged = false) const {
    std::string rhs = Rhs(before, after, op, indent, path, show_null, show_unchanged);
    if (Forces(path)) rhs = plan_render::WithReplacementNote(rhs, o_.color);
    std::string out = Pad(indent) + Sym(op);
    if (!element) out += name + Pad(width - static_cast<int>(name.size())) + " = ";
    out += rhs;
    if (element) out += ",";
    return out + "\n";
  }

  //! Terraform's map and object renderers: keys sorted and aligned over every element,
  //! unchanged elements hidden unless `show_unchanged`; inside objects the identifying
  //! attributes (id, name, tags) are always shown. Removed map elements say "-> null",
  //! removed object attributes do not.
  std::string MappingDiff(const Value& before, const Value& after, int indent, const AttrPath& path,
                          bool show_unchanged) const {
    bool is_map = after.kind() == ValueKind::Map;
    const auto& b = before.AsMap();
    const auto& a = after.AsMap();
    std::vector<std::string> keys;
    for (const auto& [k, v] : b) keys.push_back(k);
    for (const auto& [k, v] : a) {
      if (!b.count(k)) keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    int width = 0;
    int hidden = 0;
    std::string body;
    std::vector<std::string> shown_keys;
    for (const auto& k : keys) {
      Value bv = b.count(k) ? b.at(k) : Value();
      Value av = a.count(k) ? a.at(k) : Value();
      if (bv.IsNull() && av.IsNull()) continue;
      width = std::max(width, static_cast<int>((is_map ? QuoteString(k) : FormatKey(k)).size()));
    }
    for (const auto& k : keys) {
      Value bv = b.count(k) ? b.at(k) : Value();
      Value av = a.count(k) ? a.at(k) : Value();
      if (bv.IsNull() && av.IsNull()) continue;
      Op op = OpFor(bv, av);
      bool important = !is_map && IsIdentifying(k);
      if (op == Op::NoOp && !show_unchanged && !important) {
        ++hidden;
        continue;
      }
      PathStep step = is_map ? PathStep::Key(k) : PathStep::Attr(k);
      body += Line(is_map ? QuoteString(k) : FormatKey(k), width, bv, av, op, indent + 4, path.Child(step), is_map,
                   false, show_unchanged || important);
    }
    std::string out = "{\n" + body;
    if (hidden > 0) out += Pad(indent + 6) + HiddenNote(hidden, is_map ? "element" : "attribute") + "\n";
    return out + Pad(indent + 2) + "}";
  }

  std::string SequenceDiff(const Value& before, const Value& after, int indent, const AttrPath& path,
                           bool show_unchanged) const {
    const auto& b = before.AsList();
    const auto& a = after.AsList();
    // Longest common subsequence, then Terraform's walk: unmatched pairs of objects are
    // diffed in place, other unmatched elements are deleted and created.
    size_t n = b.size(), m = a.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        lcs[i][j] = SameValue(b[i], a[j]) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    // The element operations, in order.
    struct Elem {
      Value before, after;
      Op op;
      size_t index;
    };
    std::vector<Elem> elems;
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && SameValue(b[i], a[j])) {
        elems.push_back({b[i], a[j], Op::NoOp, j});
        ++i;
        ++j;
      } else if (i < n && j < m && b[i].IsMapping() && a[j].IsMapping() && lcs[i + 1][j] == lcs[i][j] &&
                 lcs[i][j + 1] == lcs[i][j]) {
        elems.push_back({b[i], a[j], Op::Update, j});
        ++i;
        ++j;
      } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        elems.push_back({b[i], Value(), Op::Delete, i});
        ++i;
      } else {
        elems.push_back({Value(), a[j], Op::Create, j});
        ++j;
      }
    }
    // Terraform's list renderer with context: the unchanged element just before and just
    // after each change is shown, runs of other unchanged elements are counted.
    std::string out = "[\n";
    auto emit = [&](const Elem& e) {
      out += Line("", 0, e.before, e.after, e.op, indent + 4, path.Child(PathStep::Index(static_cast<int64_t>(e.index))),
                  false, true, show_unchanged || e.op == Op::NoOp);
    };
    auto note = [&](size_t count) {
      if (count > 0) out += Pad(indent + 6) + HiddenNote(static_cast<int>(count), "element") + "\n";
    };
    std::vector<const Elem*> unchanged;
    bool render_next = false;
    for (const auto& e : elems) {
      if (e.op == Op::NoOp && !render_next && !show_unchanged) {
        unchanged.push_back(&e);
        continue;
      }
      render_next = false;
      if (!unchanged.empty()) {
        note(unchanged.size() - 1);
        emit(*unchanged.back());
        unchanged.clear();
      }
      if (e.op != Op::NoOp) render_next = true;
      emit(e);
    }
    note(unchanged.size());
    return out + Pad(indent + 2) + "]";
  }

  //! The lines of an object drawn as a block body (the resource itself, or one nested
  //! block): its attributes, sorted and aligned, then the members `shape` draws as blocks,
  //! each element as "name {" ... "}", as Terraform's block renderer does: unchanged
  //! attributes and blocks are counted, not shown (the identifying id, name and tags always
  //! are), a blank line goes before each group of blocks when the body has attributes.
  //! `indent` is the column of the lines' symbols.
  std::string Members(const Value& before, const Value& after, int indent, const AttrPath& path, const BlockShape& shape,
                      bool show_unchanged, bool show_null) const {
    std::vector<std::string> keys;
    if (before.IsMapping()) {
      for (const auto& [k, v] : before.AsMap()) keys.push_back(k);
    }
    if (after.IsMapping()) {
      for (const auto& [k, v] : after.AsMap()) {
        if (!before.IsMapping() || !before.AsMap().count(k)) keys.push_back(k);
      }
    }
    std::sort(keys.begin(), keys.end());
    auto member = [](const Value& object, const std::string& k) {
      return object.IsMapping() && object.AsMap().count(k) ? object.AsMap().at(k) : Value();
    };
    std::vector<std::string> attributes, blocks;
    int width = 0;
    for (const auto& k : keys) {
      Value bv = member(before, k), av = member(after, k);
      if (bv.IsNull() && av.IsNull()) continue;
      if (shape.Find(k) && DrawnAsBlocks(bv) && DrawnAsBlocks(av)) {
        blocks.push_back(k);
        continue;
      }
      attributes.push_back(k);
      width = std::max(width, static_cast<int>(FormatKey(k).size()));
    }
    std::string out;
    int hidden = 0;
    for (const auto& k : attributes) {
      Value bv = member(before, k), av = member(after, k);
      Op op = OpFor(bv, av);
      bool important = IsIdentifying(k);
      if (op == Op::NoOp && !show_unchanged && !important) {
        ++hidden;
        continue;
      }
      out += Line(FormatKey(k), width, bv, av, op, indent, path.Attr(k), show_null, false, show_unchanged || important);
    }
    if (hidden > 0) out += Pad(indent + 2) + HiddenNote(hidden, "attribute") + "\n";
    int hidden_blocks = 0;
    for (const auto& k : blocks) {
      const BlockShape::Member& m = *shape.Find(k);
      bool first = true;
      for (const BlockPair& pair : PairBlocks(member(before, k), member(after, k), m.is_set)) {
        Op op = OpFor(pair.before, pair.after);
        if (op == Op::NoOp && !show_unchanged) {
          ++hidden_blocks;
          continue;
        }
        if (first && !attributes.empty()) out += "\n";
        first = false;
        AttrPath block_path = path.Attr(k);
        std::string note = Forces(block_path) ? " " + Color(kRed, "# forces replacement") : "";
        out += Pad(indent) + Sym(op) + FormatKey(k) + " {" + note + "\n";
        out += Members(pair.before, pair.after, indent + 4, block_path.Index(pair.index), m.shape,
                       show_unchanged || op == Op::NoOp, true);
        out += Pad(indent + 2) + "}\n";
      }
    }
    if (hidden_blocks > 0) out += "\n" + Pad(indent + 2) + HiddenNote(hidden_blocks, "block") + "\n";
    return out;
  }

 private:
  const HumanRenderOptions& o_;
  const std::vector<AttrPath>* forces_;
};

// What an interrupted create's recovery does, in the words of its type's mechanism.
std::string InterruptedCreateReason(CreateRecovery recovery) {
  const char* how = "";
  switch (recovery) {
    case CreateRecovery::ClientToken:
      how = "it is sent again with the same client token, so the API returns the object it made instead of a second one";
      break;
    case CreateRecovery::CreateTag:
      how = "the object it made carries its token in the strata:create-token tag, so it is looked up by that tag and "
            "adopted; only if none exists is it created";
      break;
    case CreateRecovery::NaturalKey:
      how = "the object is looked up by its unique key and adopted if it is the one planned; only if none exists is it "
            "created";
      break;
    case CreateRecovery::StateOnly:
      how = "this type keeps nothing outside Strata's state, so it is created again";
      break;
    case CreateRecovery::Rerun:
      how = "the command runs again with the same STRATA_CREATE_TOKEN in its environment";
      break;
    case CreateRecovery::Unspecified:
      how = "its type declares no way to find what it made: check for a duplicate after the apply";
      break;
  }
  return std::string("(because an earlier create was interrupted: ") + how + ")";
}

// How a destroy found the object an interrupted create made.
std::string FoundAfterInterruptionReason(CreateRecovery recovery) {
  const char* how = "by its type's create recovery";
  switch (recovery) {
    case CreateRecovery::ClientToken: how = "by the client token it was created with"; break;
    case CreateRecovery::CreateTag: how = "by its strata:create-token tag"; break;
    case CreateRecovery::NaturalKey: how = "by its unique key"; break;
    case CreateRecovery::StateOnly:
    case CreateRecovery::Rerun:
    case CreateRecovery::Unspecified: break;
  }
  return std::string("(because an earlier create was interrupted: the object it made was found ") + how + ")";
}

std::string Headline(const ResourceInstanceChange& c, const HumanRenderOptions& o) {
  std::string addr = c.addr.ToString();
  std::string bold_addr = o.color ? std::string(kBold) + "# " + addr + kReset : "# " + addr;
  std::string what;
  std::string because;
  // Terraform's notes under the headline for an object moved or imported on the way.
  std::string moved = c.previous_addr ? fmt::format("(moved from {})", c.previous_addr->ToString()) : "";
  std::string imported = c.importing_id ? fmt::format("(imported from {})", QuoteString(*c.importing_id)) : "";
  switch (c.action) {
    case Action::NoOp:
      if (c.importing_id) {
        std::string out = "  " + bold_addr + " will be imported\n";
        if (c.generated_config) out += "  # (config will be generated)\n";
        if (c.previous_addr) out += "  # " + moved + "\n";
        return out;
      }
      if (c.previous_addr) {
        std::string from = "# " + c.previous_addr->ToString();
        return "  " + (o.color ? std::string(kBold) + from + kReset : from) + " has moved to " + addr + "\n";
      }
      return "";
    case Action::Forget:
      return fmt::format(" {} will no longer be managed by Strata, but will not be destroyed\n"
                         " # (destroy = false is set in the configuration)\n",
                         bold_addr);
    case Action::Create:
      what = " will be created";
      if (c.reason == ActionReason::RecreateBecauseGone) {
        because = "(because the object no longer exists: it was deleted outside of Strata)";
      }
      if (c.reason == ActionReason::CreateAfterInterruption) because = InterruptedCreateReason(c.recovery);
      break;
    case Action::Read:
      what = " will be read during apply";
      if (c.reason == ActionReason::ReadBecauseConfigUnknown) because = "(config refers to values not yet known)";
      if (c.reason == ActionReason::ReadBecauseDependencyPending) {
        because = "(depends on a resource or a module with changes pending)";
      }
      break;
    case Action::Update: what = " will be updated in-place"; break;
    case Action::DeleteThenCreate:
    case Action::CreateThenDelete:
      if (c.reason == ActionReason::ReplaceBecauseTainted) what = " is tainted, so must be replaced";
      else if (c.reason == ActionReason::ReplaceByRequest) what = " will be replaced, as requested";
      else what = " must be replaced";
      break;
    case Action::Delete:
      what = " will be destroyed";
      if (!c.deposed.empty()) {
        // Terraform's wording for what a create_before_destroy replacement left behind.
        what = fmt::format(" (deposed object {}) will be destroyed", c.deposed);
        because = "(left over from a partially-failed replacement of this instance)";
        break;
      }
      switch (c.reason) {
        case ActionReason::DeleteBecauseNoResourceConfig:
          because = fmt::format("(because {} is not in configuration)", addr);
          break;
        case ActionReason::DeleteBecauseNoModule:
          because = fmt::format("(because {} is not in configuration)", c.addr.module.ToString());
          break;
        case ActionReason::DeleteBecauseWrongRepetition:
          because = c.addr.key.IsNone()  ? "(because resource uses count or for_each)"
                    : c.addr.key.IsInt() ? "(because resource does not use count)"
                                         : "(because resource does not use for_each)";
          break;
        case ActionReason::DeleteBecauseCountIndex:
          because = fmt::format("(because index {} is out of range for count)", c.addr.key.ToString());
          break;
        case ActionReason::DeleteBecauseEachKey:
          because = fmt::format("(because key {} is not in for_each map)", c.addr.key.ToString());
          break;
        case ActionReason::InterruptedCreate: because = FoundAfterInterruptionReason(c.recovery); break;
        default: break;
      }
      break;
  }
  std::string out = "  " + bold_addr + what + "\n";
  if (!because.empty()) out += "  # " + because + "\n";
  if (!moved.empty()) out += "  # " + moved + "\n";
  if (!imported.empty()) out += "  # " + imported + "\n";
  return out;
}

std::string HeaderSymbol(Action a, const HumanRenderOptions& o) {
  auto c = [&](const char* code, const char* s) { return o.color ? std::string(code) + s + kReset : std::string(s); };
  switch (a) {
    case Action::Create: return "  " + c(kGreen, "+");
    case Action::Delete: return "  " + c(kRed, "-");
    case Action::Update: return "  " + c(kYellow, "~");
    case Action::DeleteThenCreate: return c(kRed, "-") + "/" + c(kGreen, "+");
    case Action::CreateThenDelete: return c(kGreen, "+") + "/" + c(kRed, "-");
    case Action::Read: return " " + c(kCyan, "<=");
    case Action::Forget: return " " + c(kRed, ".");
    case Action::NoOp: return "   ";
  }
  return "   ";
}

// A state read without its key holds a sensitive value as a null with the mark, which the
// renderers would leave out as unset: any sensitive value becomes a marked placeholder,
// drawn "(sensitive value)" like the value itself.
Value ShownMasked(const Value& v) {
  if (v.IsSensitive()) return Value::String("").MarkSensitive();
  if (!v.ContainsSensitive()) return v;
  if (v.IsMapping()) {
    ValueMap m;
    for (const auto& [k, e] : v.AsMap()) m[k] = ShownMasked(e);
    return v.kind() == ValueKind::Map ? Value::Map(std::move(m)) : Value::Object(std::move(m));
  }
  ValueList items;
  for (const auto& e : v.AsList()) items.push_back(ShownMasked(e));
  if (v.kind() == ValueKind::List) return Value::List(std::move(items));
  return v.kind() == ValueKind::Set ? Value::Set(std::move(items)) : Value::Tuple(std::move(items));
}

}  // namespace

std::string RenderStateHuman(const StateView& state, const HumanRenderOptions& o) {
  if (state.resources.empty() && state.outputs.empty()) return "The state file is empty. No resources are represented.\n";
  std::vector<const StateView::Resource*> resources;
  for (const auto& r : state.resources) resources.push_back(&r);
  // Terraform's order: module by module (the root first), each module's resources by address.
  std::sort(resources.begin(), resources.end(), [](const auto* a, const auto* b) {
    std::string am = a->addr.module.ToString(), bm = b->addr.module.ToString();
    return am != bm ? am < bm : a->addr.ToString() < b->addr.ToString();
  });
  Renderer r(o, nullptr);
  std::string out;
  for (size_t i = 0; i < resources.size(); ++i) {
    const StateView::Resource& res = *resources[i];
    if (i > 0 && resources[i - 1]->addr.module.ToString() != res.addr.module.ToString()) out += "\n";
    bool data = res.addr.resource.mode == ResourceMode::Data;
    std::string heading = "# " + res.addr.ToString() + ":";
    out += (o.color ? std::string(kBold) + heading + kReset : heading) + (res.tainted ? " (tainted)" : "") + "\n";
    out += fmt::format("{} {} {} {{\n", data ? "data" : "resource", QuoteString(res.addr.resource.type),
                       QuoteString(res.addr.resource.name));
    const ResourceSchema* schema = o.schemas ? o.schemas->Find(res.addr.resource.mode, res.addr.resource.type) : nullptr;
    Value shown = ShownMasked(res.values);
    out += r.Members(shown, shown, 2, AttrPath(), BlockShapeOf(schema), true, false);
    out += "}\n\n";
  }
  if (!state.outputs.empty()) {
    if (!resources.empty()) out += "\n";
    out += "Outputs:\n\n";
    std::vector<const StateView::Output*> outputs;
    for (const auto& output : state.outputs) outputs.push_back(&output);
    std::sort(outputs.begin(), outputs.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
    for (const auto* output : outputs) {
      bool masked = output->sensitive || output->value.ContainsSensitive();
      // Collections drawn as the blocks' attributes are: four spaces a level.
      out += FormatKey(output->name) + " = " + (masked ? "(sensitive value)" : r.Whole(output->value, Op::NoOp, -2)) + "\n";
    }
  }
  return out;
}

std::string RenderResourceChangeHuman(const ResourceInstanceChange& c, const HumanRenderOptions& o) {
  if (!c.ChangesState()) return "";
  Renderer r(o, &c.requires_replace);
  bool data = c.addr.resource.mode == ResourceMode::Data;
  std::string out = Headline(c, o);
  out += fmt::format("{} {} {} {} {{\n", HeaderSymbol(c.action, o), data ? "data" : "resource",
                     QuoteString(c.addr.resource.type), QuoteString(c.addr.resource.name));
  const ResourceSchema* schema = o.schemas ? o.schemas->Find(c.addr.resource.mode, c.addr.resource.type) : nullptr;
  Value before = c.action == Action::Create || c.action == Action::Read ? Value() : UntypedMapsAsObjects(c.before, schema);
  // A forgotten object stays as it is: shown like an unchanged one.
  Value after = c.action == Action::Delete   ? Value()
                : c.action == Action::Forget ? UntypedMapsAsObjects(c.before, schema)
                                             : UntypedMapsAsObjects(c.after, schema);
  out += r.Members(before, after, 6, AttrPath(), BlockShapeOf(schema), false, true);
  out += "    }\n";
  return out;
}

std::string RenderPlanHuman(const Plan& plan, const HumanRenderOptions& o) {
  auto bold = [&](const std::string& s) { return o.color ? std::string(kBold) + s + kReset : s; };
  std::vector<const ResourceInstanceChange*> shown;
  for (const auto& c : plan.changes) {
    if (c.ChangesState()) shown.push_back(&c);
  }
  // Terraform's order: the root module's instances first, then each module's; keys by value.
  std::sort(shown.begin(), shown.end(), [](const auto* a, const auto* b) { return PlanOrderLess(a->addr, b->addr); });
  std::vector<const OutputChange*> outputs;
  for (const auto& oc : plan.output_changes) {
    if (oc.action != Action::NoOp) outputs.push_back(&oc);
  }
  std::sort(outputs.begin(), outputs.end(), [](const auto* a, const auto* b) { return a->name < b->name; });

  if (shown.empty() && outputs.empty()) {
    return bold("No changes.") + " " + bold("Your infrastructure matches the configuration.") +
           "\n\nStrata has compared your real infrastructure against your configuration\n"
           "and found no differences, so no changes are needed.\n";
  }

  std::string out;
  if (!shown.empty()) {
    auto has = [&](Action a) {
      return std::any_of(shown.begin(), shown.end(), [a](const auto* c) { return c->action == a; });
    };
    bool symbols = std::any_of(shown.begin(), shown.end(), [](const auto* c) {
      return c->action != Action::NoOp && c->action != Action::Forget;
    });
    if (symbols) {
      out += "Strata used the selected providers to generate the following execution\n"
             "plan. Resource actions are indicated with the following symbols:\n";
    }
    if (has(Action::Create)) out += HeaderSymbol(Action::Create, o) + " create\n";
    if (has(Action::Update)) out += HeaderSymbol(Action::Update, o) + " update in-place\n";
    if (has(Action::Delete)) out += HeaderSymbol(Action::Delete, o) + " destroy\n";
    if (has(Action::DeleteThenCreate)) {
      out += HeaderSymbol(Action::DeleteThenCreate, o) + " destroy and then create replacement\n";
    }
    if (has(Action::CreateThenDelete)) {
      out += HeaderSymbol(Action::CreateThenDelete, o) + " create replacement and then destroy\n";
    }
    if (has(Action::Read)) out += HeaderSymbol(Action::Read, o) + " read (data resources)\n";
    out += symbols ? "\nStrata will perform the following actions:\n\n" : "Strata will perform the following actions:\n\n";
    for (const auto* c : shown) out += RenderResourceChangeHuman(*c, o) + "\n";
    out += bold("Plan:") + FormatPlanSummary(CountChanges(plan.changes)).substr(5) + "\n";
  }
  if (!outputs.empty()) {
    if (!shown.empty()) out += "\n";
    out += "Changes to Outputs:\n";
    Renderer r(o, nullptr);
    int width = 0;
    for (const auto* oc : outputs) width = std::max(width, static_cast<int>(oc->name.size()));
    for (const auto* oc : outputs) {
      // An output has no type in Terraform's plan: its maps are drawn as objects.
      Value before = MapsAsObjects(oc->before), after = MapsAsObjects(oc->after);
      if (oc->sensitive) {
        if (!before.IsNull()) before = before.MarkSensitive();
        if (!after.IsNull()) after = after.MarkSensitive();
      }
      Op op = oc->action == Action::Create ? Op::Create
              : oc->action == Action::Delete ? Op::Delete
                                             : Op::Update;
      out += r.Line(oc->name, width, before, after, op, 2, AttrPath::Of(oc->name), true, false);
    }
    if (shown.empty()) {
      out += "\nYou can apply this plan to save these new output values to the Strata state,\n"
             "without changing any real infrastructure.\n";
    }
  }
  return out;
}

}  // namespace strata

namespace strata {

std::string RenderDriftHuman(const Plan& plan, const HumanRenderOptions& o) {
  if (plan.drift.empty()) return "";
  auto bold = [&](const std::string& s) { return o.color ? std::string(kBold) + s + kReset : s; };
  std::string out = "\n" + bold("Note: Objects have changed outside of Strata") +
                    "\n\nStrata detected the following changes made outside of Strata since the\nlast \"strata apply\" "
                    "which may have affected this plan:\n\n";
  for (const auto& c : plan.drift) {
    std::string addr = c.addr.ToString();
    std::string headline = "  " + bold("# " + addr);
    if (c.reason == ActionReason::InterruptedCreate) {
      // Not a change outside Strata: an interrupted create that, as its type's recovery
      // found, made nothing. The body would be empty.
      out += headline + " was never created: its interrupted create made nothing, so it leaves the state\n\n";
      continue;
    }
    headline += c.action == Action::Delete ? " has been deleted" : " has changed";
    // Same body as a planned change; the headline says what happened instead.
    std::string block = RenderResourceChangeHuman(c, o);
    size_t eol = block.find('\n');
    out += headline + block.substr(eol) + "\n";
  }
  if (plan.mode == PlanMode::RefreshOnly) {
    out += "This is a refresh-only plan, so Strata will not take any actions to undo\nthese. Applying it records "
           "these changes in the state.\n";
  } else {
    out += "Unless you have made equivalent changes to your configuration, or ignored\nthe relevant attributes using "
           "ignore_changes, the following plan may include\nactions to undo or respond to these changes.\n";
  }
  for (int i = 0; i < 77; ++i) out += i == 0 ? "\n\u2500" : "\u2500";
  out += "\n\n";
  return out;
}

}  // namespace strata
