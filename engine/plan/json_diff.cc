#include "engine/plan/json_diff.h"

#include <vector>

#include "engine/plan/slice_pairs.h"
#include "engine/value/format.h"
#include "engine/value/limits.h"

namespace strata::plan_render {
namespace {

using nlohmann::json;

// The change of one JSON value, computed before it is drawn: a parent needs its children's
// changes to pick its own symbol and to count what it hides (Terraform's computed.Diff).
struct JsonChange {
  enum class Shape { Primitive, Object, Array, TypeChange };
  Shape shape = Shape::Primitive;
  Op op = Op::NoOp;
  // A primitive's sides (nullptr: the side does not exist).
  const json* before = nullptr;
  const json* after = nullptr;
  // An object's members, sorted by key.
  std::vector<std::pair<std::string, JsonChange>> members;
  // An array's elements, paired; a type change's two sides (the old value deleted, the new
  // one created).
  std::vector<JsonChange> elements;
};

enum class JsonType { Null, Bool, Number, String, Object, Array };

JsonType JsonTypeOf(const json* j) {
  if (!j || j->is_null()) return JsonType::Null;
  if (j->is_boolean()) return JsonType::Bool;
  if (j->is_number()) return JsonType::Number;
  if (j->is_string()) return JsonType::String;
  if (j->is_object()) return JsonType::Object;
  return JsonType::Array;
}

// The starting change of a collection, before its elements' changes are combined in.
Op JsonCollectionOp(const json* before, const json* after) {
  if (before && !after) return Op::Delete;
  if (!before && after) return Op::Create;
  return Op::NoOp;
}

JsonChange JsonDiff(const json* before, const json* after);

JsonChange JsonDiffObject(const json* before, const json* after) {
  JsonChange c;
  c.shape = JsonChange::Shape::Object;
  c.op = JsonCollectionOp(before, after);
  // nlohmann::json keeps object keys sorted: merge the two key lists.
  std::vector<std::string> keys;
  if (before) {
    for (const auto& [k, v] : before->items()) keys.push_back(k);
  }
  if (after) {
    for (const auto& [k, v] : after->items()) {
      if (!before || !before->contains(k)) keys.push_back(k);
    }
  }
  std::sort(keys.begin(), keys.end());
  for (const auto& k : keys) {
    const json* b = before && before->contains(k) ? &before->at(k) : nullptr;
    const json* a = after && after->contains(k) ? &after->at(k) : nullptr;
    JsonChange member = JsonDiff(b, a);
    c.op = CombineOps(c.op, member.op);
    c.members.emplace_back(k, std::move(member));
  }
  return c;
}

JsonChange JsonDiffArray(const json* before, const json* after) {
  JsonChange c;
  c.shape = JsonChange::Shape::Array;
  c.op = JsonCollectionOp(before, after);
  static const json kEmpty = json::array();
  const json& b = before ? *before : kEmpty;
  const json& a = after ? *after : kEmpty;
  auto same = [&](size_t i, size_t j) { return b[i] == a[j]; };
  auto b_object = [&](size_t i) { return b[i].is_object(); };
  auto a_object = [&](size_t j) { return a[j].is_object(); };
  for (const SlicePair& p : PairSlices(b.size(), a.size(), same, b_object, a_object)) {
    JsonChange element = JsonDiff(p.before == SlicePair::npos ? nullptr : &b[p.before],
                              p.after == SlicePair::npos ? nullptr : &a[p.after]);
    c.op = CombineOps(c.op, element.op);
    c.elements.push_back(std::move(element));
  }
  return c;
}

JsonChange JsonDiffAs(const json* before, const json* after, JsonType type) {
  if (type == JsonType::Object) return JsonDiffObject(before, after);
  if (type == JsonType::Array) return JsonDiffArray(before, after);
  JsonChange c;
  c.before = before;
  c.after = after;
  c.op = !before ? Op::Create : !after ? Op::Delete : *before == *after ? Op::NoOp : Op::Update;
  return c;
}

// Terraform's jsondiff.Transform: values of one type (or a value on one side only) diff by
// that type; otherwise the old value is deleted and the new one created.
JsonChange JsonDiff(const json* before, const json* after) {
  JsonType bt = JsonTypeOf(before), at = JsonTypeOf(after);
  if (bt == at || !before || !after) return JsonDiffAs(before, after, bt != JsonType::Null ? bt : at);
  JsonChange c;
  c.shape = JsonChange::Shape::TypeChange;
  c.op = Op::Update;
  c.elements.push_back(JsonDiffAs(before, nullptr, bt));
  c.elements.push_back(JsonDiffAs(nullptr, after, at));
  return c;
}

//! Terraform always shows these object attributes, changed or not.
bool IsImportantJsonKey(const std::string& k) { return k == "id" || k == "name" || k == "tags"; }

class JsonRenderer {
 public:
  explicit JsonRenderer(const StringRenderOptions& o) : o_(o) {}

  // The value of `c` at column `indent`; no "-> null" anywhere inside a JSON document.
  std::string Render(const JsonChange& c, int indent, bool show_unchanged) const {
    switch (c.shape) {
      case JsonChange::Shape::Primitive: return Primitive(c, indent, show_unchanged);
      case JsonChange::Shape::Object: return Object(c, indent, show_unchanged);
      case JsonChange::Shape::Array: return Array(c, indent, show_unchanged);
      case JsonChange::Shape::TypeChange:
        return Render(c.elements[0], indent, show_unchanged) + " -> " + Render(c.elements[1], indent, show_unchanged);
    }
    return "";
  }

 private:
  std::string Primitive(const JsonChange& c, int indent, bool show_unchanged) const {
    const json* shown = c.before ? c.before : c.after;
    if (shown->is_string()) {
      // A string inside the document is drawn as any string is: it may hold JSON or lines.
      const std::string* b = c.before ? &c.before->get_ref<const std::string&>() : nullptr;
      const std::string* a = c.after ? &c.after->get_ref<const std::string&>() : nullptr;
      StringRenderOptions inner = o_;
      inner.show_null = false;
      inner.show_unchanged = show_unchanged;
      return RenderStringChange(b, a, c.op, indent, inner);
    }
    switch (c.op) {
      case Op::Create: return c.after->dump();
      case Op::Delete:
      case Op::NoOp: return c.before->dump();
      case Op::Update: break;
    }
    return c.before->dump() + " -> " + c.after->dump();
  }

  std::string Object(const JsonChange& c, int indent, bool show_unchanged) const {
    if (c.members.empty()) return "{}";
    size_t width = 0;
    for (const auto& [k, m] : c.members) width = std::max(width, FormatKey(k).size());
    std::string out = "{\n";
    int hidden = 0;
    for (const auto& [k, m] : c.members) {
      bool important = IsImportantJsonKey(k);
      if (m.op == Op::NoOp && !show_unchanged && !important) {
        ++hidden;
        continue;
      }
      std::string key = FormatKey(k);
      out += Pad(indent + 4) + Symbol(m.op, o_.color) + key + Pad(static_cast<int>(width - key.size())) + " = " +
             Render(m, indent + 4, show_unchanged || important) + "\n";
    }
    if (hidden > 0) out += Pad(indent + 6) + HiddenNote(hidden, "attribute") + "\n";
    return out + Pad(indent + 2) + "}";
  }

  // Terraform's list renderer with context: the unchanged element on each side of a change
  // is shown, other runs of unchanged elements are counted.
  std::string Array(const JsonChange& c, int indent, bool show_unchanged) const {
    if (c.elements.empty()) return "[]";
    std::string out = "[\n";
    auto line = [&](const JsonChange& e, bool show) {
      out += Pad(indent + 4) + Symbol(e.op, o_.color) + Render(e, indent + 4, show) + ",\n";
    };
    auto note = [&](size_t n) {
      if (n > 0) out += Pad(indent + 6) + HiddenNote(static_cast<int>(n), "element") + "\n";
    };
    std::vector<const JsonChange*> unchanged;
    bool render_next = false;
    for (const JsonChange& e : c.elements) {
      if (e.op == Op::NoOp && !render_next && !show_unchanged) {
        unchanged.push_back(&e);
        continue;
      }
      render_next = false;
      if (unchanged.size() > 1) note(unchanged.size() - 1);
      if (!unchanged.empty()) line(*unchanged.back(), true);
      unchanged.clear();
      if (e.op != Op::NoOp) render_next = true;
      line(e, show_unchanged || e.op == Op::NoOp);
    }
    note(unchanged.size());
    return out + Pad(indent + 2) + "]";
  }

  const StringRenderOptions& o_;
};

}  // namespace

std::optional<nlohmann::json> ParseJsonString(const std::string& s) {
  if (s.empty() || (s[0] != '{' && s[0] != '[')) return std::nullopt;
  // The diff and its drawing recurse: a document nested deeper than the engine accepts
  // anywhere (limits.h) is drawn as the plain string it is.
  bool too_deep = false;
  auto bounded = [&too_deep](int depth, json::parse_event_t event, json&) {
    bool opens = event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
    if (opens && depth >= kMaxNestingDepth) too_deep = true;
    return true;
  };
  json doc = json::parse(s, bounded, /*allow_exceptions=*/false);
  if (doc.is_discarded() || too_deep) return std::nullopt;
  return doc;
}

std::string RenderJsonStringChange(const nlohmann::json* before, const nlohmann::json* after, Op op, int indent,
                                   const StringRenderOptions& o) {
  JsonChange change = JsonDiff(op == Op::Create ? nullptr : before, op == Op::Delete ? nullptr : after);
  bool show_unchanged = o.show_unchanged;
  std::string whitespace;
  Op symbol = op;
  if (op == Op::Update && change.op == Op::NoOp) {
    // The documents are equal: only the whitespace changed. Show all of it, unmarked.
    whitespace = " # whitespace changes";
    show_unchanged = true;
    symbol = Op::NoOp;
  }
  // A created or deleted document's lines carry the +/-; its opening line none.
  if (op == Op::Create || op == Op::Delete) symbol = Op::NoOp;
  std::string rendered = JsonRenderer(o).Render(change, indent + 4, show_unchanged);
  if (rendered.find('\n') == std::string::npos) return "jsonencode(" + rendered + ")" + whitespace;
  std::string null_suffix = op == Op::Delete && o.show_null ? " -> null" : "";
  return "jsonencode(" + whitespace + "\n" + Pad(indent + 4) + Symbol(symbol, o.color) + rendered + "\n" +
         Pad(indent + 2) + ")" + null_suffix;
}

}  // namespace strata::plan_render
