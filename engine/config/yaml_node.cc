#include "engine/config/yaml_node.h"

#include <yaml.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory_resource>

#include <fmt/format.h>

#include "engine/value/limits.h"

namespace strata {
namespace yaml_detail {

enum class Kind : uint8_t { Null, Scalar, Sequence, Map };
enum class Style : uint8_t { Plain, Quoted, Block };

struct NodeData {
  Kind kind = Kind::Null;
  Style style = Style::Plain;
  bool open = false;  // a collection whose end event has not come yet
  YamlMark mark;
  std::string scalar;
  std::string tag;  // an explicit tag only
  const NodeData* const* children = nullptr;  // items, or key, value, key, value...
  uint32_t count = 0;                         // pointers in children
  int height = 0;                             // collection levels, aliases expanded
  size_t expanded = 1;                        // values, aliases expanded
};

}  // namespace yaml_detail

using yaml_detail::Kind;
using yaml_detail::NodeData;
using yaml_detail::Style;

namespace {

const std::string kYamlNoText;
const std::string kYamlPlainTag = "?";
const std::string kYamlQuotedTag = "!";
const NodeData kYamlNullNode{};

}  // namespace

bool YamlNode::IsNull() const { return data_ && data_->kind == Kind::Null; }
bool YamlNode::IsScalar() const { return data_ && data_->kind == Kind::Scalar; }
bool YamlNode::IsSequence() const { return data_ && data_->kind == Kind::Sequence; }
bool YamlNode::IsMap() const { return data_ && data_->kind == Kind::Map; }
const std::string& YamlNode::Scalar() const { return IsScalar() ? data_->scalar : kYamlNoText; }

const std::string& YamlNode::Tag() const {
  if (!data_ || data_->kind == Kind::Null) return kYamlNoText;
  if (!data_->tag.empty()) return data_->tag;
  return data_->kind == Kind::Scalar && data_->style != Style::Plain ? kYamlQuotedTag : kYamlPlainTag;
}

YamlMark YamlNode::Mark() const { return data_ ? data_->mark : YamlMark{}; }

size_t YamlNode::size() const {
  if (!data_) return 0;
  return data_->kind == Kind::Map ? data_->count / 2 : data_->kind == Kind::Sequence ? data_->count : 0;
}

YamlNode YamlNode::operator[](std::string_view key) const {
  if (!IsMap()) return YamlNode();
  for (uint32_t i = 0; i < data_->count; i += 2) {
    const NodeData* k = data_->children[i];
    if (k->kind == Kind::Scalar && k->scalar == key) return YamlNode(data_->children[i + 1]);
  }
  return YamlNode();
}

YamlNode::Iterator YamlNode::begin() const {
  bool collection = IsMap() || IsSequence();
  return Iterator(collection ? data_->children : nullptr, IsMap());
}

YamlNode::Iterator YamlNode::end() const {
  bool collection = IsMap() || IsSequence();
  return Iterator(collection ? data_->children + data_->count : nullptr, IsMap());
}

const YamlPair& YamlNode::Iterator::operator*() const {
  if (map_) {
    static_cast<YamlNode&>(current_) = YamlNode();
    current_.first = YamlNode(at_[0]);
    current_.second = YamlNode(at_[1]);
  } else {
    static_cast<YamlNode&>(current_) = YamlNode(at_[0]);
    current_.first = current_.second = YamlNode();
  }
  return current_;
}

YamlNode NullYamlNode() { return YamlNode(&kYamlNullNode); }

// The nodes of one text: stable addresses (a deque), child arrays from one arena.
struct YamlTree::Storage {
  std::deque<NodeData> nodes;
  std::pmr::monotonic_buffer_resource arena;
};

YamlTree::YamlTree() : storage_(std::make_unique<Storage>()) {}
YamlTree::~YamlTree() = default;
YamlTree::YamlTree(YamlTree&&) noexcept = default;
YamlTree& YamlTree::operator=(YamlTree&&) noexcept = default;

namespace {

// libyaml counts marks in characters; the loader (and yaml-cpp before it) in bytes, lines
// ending at '\n'. Converts one to the other.
class YamlPositions {
 public:
  explicit YamlPositions(std::string_view text) : text_(text) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') line_starts_.push_back(static_cast<int>(i + 1));
      if (static_cast<unsigned char>(text[i]) >= 0x80) ascii_ = false;
    }
    if (!ascii_) {
      for (size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) char_starts_.push_back(static_cast<int>(i));
      }
    }
  }

  YamlMark At(const yaml_mark_t& mark) { return FromByte(ByteOf(mark.index)); }

  // Events come mostly in the order of the text: the line is looked for from the last one.
  YamlMark FromByte(int pos) {
    size_t line = line_;
    if (pos < line_starts_[line]) {
      line = static_cast<size_t>(std::upper_bound(line_starts_.begin(), line_starts_.end(), pos) - line_starts_.begin()) - 1;
    } else {
      while (line + 1 < line_starts_.size() && line_starts_[line + 1] <= pos) ++line;
    }
    line_ = line;
    return YamlMark{static_cast<int>(line), pos - line_starts_[line], pos};
  }

  // Where the next token starts from `pos`: past blanks, line breaks and comments. yaml-cpp
  // placed an empty value (key: with nothing after it) there, and so do we.
  int NextToken(int pos) const {
    size_t i = static_cast<size_t>(pos);
    while (i < text_.size()) {
      char c = text_[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++i;
      } else if (c == '#') {
        while (i < text_.size() && text_[i] != '\n') ++i;
      } else {
        break;
      }
    }
    return static_cast<int>(i);
  }

  int ByteOf(size_t char_index) const {
    if (ascii_) return static_cast<int>(std::min(char_index, text_.size()));
    if (char_index >= char_starts_.size()) return static_cast<int>(text_.size());
    return char_starts_[char_index];
  }

 private:
  std::string_view text_;
  std::vector<int> line_starts_;
  std::vector<int> char_starts_;  // only for text that is not all ASCII
  bool ascii_ = true;
  size_t line_ = 0;  // the line of the last position asked for
};

bool IsYamlNullText(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

std::string YamlTooDeepMessage() {
  return fmt::format("mappings and lists nest more than {} levels deep here (or an anchor is used inside itself, as "
                     "in &a [*a]); flatten the structure",
                     kMaxNestingDepth);
}

// Builds the tree from libyaml's events, checking the bounds as nodes are added.
class YamlBuilder {
 public:
  YamlBuilder(std::string_view text, std::deque<NodeData>& nodes, std::pmr::memory_resource& arena)
      : positions_(text), nodes_(nodes), arena_(arena) {}

  // False, with problem() set, at the first problem.
  bool Event(const yaml_event_t& e) {
    switch (e.type) {
      case YAML_DOCUMENT_START_EVENT: anchors_.clear(); return true;
      case YAML_SCALAR_EVENT: return Scalar(e);
      case YAML_ALIAS_EVENT: return Alias(e);
      case YAML_SEQUENCE_START_EVENT:
        return Start(e, Kind::Sequence, e.data.sequence_start.anchor, e.data.sequence_start.tag);
      case YAML_MAPPING_START_EVENT:
        return Start(e, Kind::Map, e.data.mapping_start.anchor, e.data.mapping_start.tag);
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: End(); return true;
      default: return true;
    }
  }

  std::vector<YamlNode>& documents() { return documents_; }
  std::optional<YamlParseProblem>& problem() { return problem_; }
  YamlPositions& positions() { return positions_; }

 private:
  struct Frame {
    NodeData* node;
    size_t first_child;  // index into children_
  };

  // libyaml gives a tag only when one is written (resolved: !!str is tag:yaml.org,2002:str).
  static std::string ExplicitTag(const yaml_char_t* tag) {
    return tag ? std::string(reinterpret_cast<const char*>(tag)) : std::string();
  }

  NodeData& NewNode(Kind kind, const yaml_mark_t& mark, const yaml_char_t* anchor) {
    NodeData& node = nodes_.emplace_back();
    node.kind = kind;
    node.mark = positions_.At(mark);
    if (anchor) anchors_[reinterpret_cast<const char*>(anchor)] = &node;
    return node;
  }

  bool Scalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    std::string_view value(reinterpret_cast<const char*>(s.value), s.length);
    std::string tag = ExplicitTag(s.tag);  // "!" or "!!str" written before the scalar
    bool plain = s.style == YAML_PLAIN_SCALAR_STYLE || s.style == YAML_ANY_SCALAR_STYLE;
    bool null = plain && tag.empty() && IsYamlNullText(value);
    NodeData& node = NewNode(null ? Kind::Null : Kind::Scalar, e.start_mark, s.anchor);
    if (null && value.empty() && !s.anchor) node.mark = positions_.FromByte(positions_.NextToken(node.mark.pos));
    if (!null) {
      node.scalar.assign(value);
      node.tag = std::move(tag);
      node.style = plain                                                                  ? Style::Plain
                   : s.style == YAML_LITERAL_SCALAR_STYLE || s.style == YAML_FOLDED_SCALAR_STYLE ? Style::Block
                                                                                                 : Style::Quoted;
    }
    return Add(&node, node.mark);
  }

  bool Alias(const yaml_event_t& e) {
    std::string name(reinterpret_cast<const char*>(e.data.alias.anchor));
    YamlMark at = positions_.At(e.start_mark);
    auto it = anchors_.find(name);
    if (it == anchors_.end()) {
      problem_ = YamlParseProblem{YamlParseProblem::Kind::Syntax,
                                  fmt::format("the alias *{} names no anchor (&{}) written before it in this document",
                                              name, name),
                                  at};
      return false;
    }
    const NodeData* target = it->second;
    if (target->open || static_cast<int>(stack_.size()) + target->height - 1 >= kMaxNestingDepth) {
      problem_ = YamlParseProblem{YamlParseProblem::Kind::TooDeep, YamlTooDeepMessage(), at};
      return false;
    }
    return Add(target, at);
  }

  bool Start(const yaml_event_t& e, Kind kind, const yaml_char_t* anchor, const yaml_char_t* tag) {
    NodeData& node = NewNode(kind, e.start_mark, anchor);
    node.tag = ExplicitTag(tag);
    if (static_cast<int>(stack_.size()) >= kMaxNestingDepth) {
      problem_ = YamlParseProblem{YamlParseProblem::Kind::TooDeep, YamlTooDeepMessage(), node.mark};
      return false;
    }
    if (!Count(node.expanded, node.mark)) return false;
    node.open = true;
    stack_.push_back({&node, children_.size()});
    return true;
  }

  void End() {
    Frame frame = stack_.back();
    stack_.pop_back();
    NodeData& node = *frame.node;
    size_t n = children_.size() - frame.first_child;
    auto* array = static_cast<const NodeData**>(arena_.allocate(std::max<size_t>(n, 1) * sizeof(NodeData*), alignof(NodeData*)));
    std::copy(children_.begin() + static_cast<std::ptrdiff_t>(frame.first_child), children_.end(), array);
    children_.resize(frame.first_child);
    node.children = array;
    node.count = static_cast<uint32_t>(n);
    node.open = false;
    int height = 0;
    for (size_t i = 0; i < n; ++i) {
      height = std::max(height, array[i]->height);
      node.expanded += array[i]->expanded;
    }
    node.height = height + 1;
    Attach(&node);
  }

  // A scalar or an alias: counted, then attached to its parent.
  bool Add(const NodeData* node, const YamlMark& at) {
    if (!Count(node->expanded, at)) return false;
    Attach(node);
    return true;
  }

  // Counts the values a walk with aliases expanded reaches, for all documents of the text.
  bool Count(size_t values, const YamlMark& at) {
    values_ += values;
    if (values_ <= kMaxYamlValues) return true;
    problem_ = YamlParseProblem{YamlParseProblem::Kind::TooManyValues,
                                fmt::format("the document stands for more than {} values once its aliases (*name) "
                                            "are expanded; use fewer or smaller aliases",
                                            kMaxYamlValues),
                                at};
    return false;
  }

  void Attach(const NodeData* node) {
    if (stack_.empty()) {
      documents_.emplace_back(node);
    } else {
      children_.push_back(node);
    }
  }

  YamlPositions positions_;
  std::deque<NodeData>& nodes_;
  std::pmr::memory_resource& arena_;
  std::vector<Frame> stack_;
  std::vector<const NodeData*> children_;
  std::map<std::string, const NodeData*, std::less<>> anchors_;
  std::vector<YamlNode> documents_;
  std::optional<YamlParseProblem> problem_;
  size_t values_ = 0;
};

// libyaml's message for a syntax error: its problem, and what it was doing when it is
// more than "parsing a block node".
std::string YamlSyntaxMessage(const yaml_parser_t& parser) {
  std::string message = parser.problem ? parser.problem : "the text is not valid YAML";
  if (parser.context) message += fmt::format(" ({})", parser.context);
  return message;
}

}  // namespace

YamlTree ParseYaml(std::string_view text) {
  YamlTree tree;
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  YamlBuilder builder(text, tree.storage_->nodes, tree.storage_->arena);
  for (;;) {
    yaml_event_t event;
    if (!yaml_parser_parse(&parser, &event)) {
      tree.problem_ = YamlParseProblem{YamlParseProblem::Kind::Syntax, YamlSyntaxMessage(parser),
                                       builder.positions().At(parser.problem_mark)};
      break;
    }
    bool ok = builder.Event(event);
    bool done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    if (!ok) {
      tree.problem_ = std::move(builder.problem());
      break;
    }
    if (done) break;
  }
  yaml_parser_delete(&parser);
  if (!tree.problem_) tree.documents_ = std::move(builder.documents());
  return tree;
}

}  // namespace strata
