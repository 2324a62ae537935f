#pragma once
// The configuration front end's YAML: libyaml's events built into a compact tree of our own
// (one arena per file), with the subset of yaml-cpp's Node API the loader reads, so that
// module files, strata.yaml and -var-files parse without yaml-cpp's regex scanner and
// shared-pointer nodes. Typing follows what yaml-cpp did for these files: a plain scalar
// ~, null, Null, NULL or nothing is a null node (not a scalar); every other scalar keeps its
// text, and Tag() tells plain ("?") from quoted or block ("!") or an explicit tag (its full
// name, as in tag:yaml.org,2002:str). Aliases are resolved to their anchor's node (shared,
// not copied); merge keys (<<) are plain keys, as they were. Every parsed text is held to
// the bounds of engine/value/limits.h (nesting, alias expansion), so walking a returned
// tree recursively is safe. yamldecode and kubernetes_documents still parse with yaml-cpp
// (engine/value/yaml_bounds.h).

#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

//! A position in the text, from 0; line and column -1 for the empty document's null node.
//! Columns and pos count bytes (not characters), so pos indexes the text.
struct YamlMark {
  int line = -1;
  int column = -1;
  int pos = -1;
};

namespace yaml_detail {
struct NodeData;
}

class YamlNode;

//! One entry of a mapping, as iteration yields it (kv.first, kv.second).
struct YamlPair;

//! A handle on a node of a YamlTree (valid while the tree lives); a default one is
//! undefined, as yaml-cpp's lookup of a missing key: false, and none of Is*().
class YamlNode {
 public:
  YamlNode() = default;
  explicit YamlNode(const yaml_detail::NodeData* data) : data_(data) {}

  bool IsDefined() const { return data_ != nullptr; }
  explicit operator bool() const { return IsDefined(); }
  bool IsNull() const;
  bool IsScalar() const;
  bool IsSequence() const;
  bool IsMap() const;
  //! The scalar's text; empty for other nodes.
  const std::string& Scalar() const;
  //! "?" for a plain scalar or an untagged collection, "!" for a quoted or block scalar,
  //! the explicit tag when one is written, "" for a null or undefined node.
  const std::string& Tag() const;
  YamlMark Mark() const;
  //! Entries of a sequence, or pairs of a mapping (then `first` and `second` are set).
  size_t size() const;
  //! The value of the first entry of a mapping whose key is the scalar `key`; undefined
  //! when there is none or this is not a mapping.
  YamlNode operator[](std::string_view key) const;

  //! Iteration over a sequence (each item is a node, whose `first`/`second` are undefined)
  //! or a mapping (each item's `first` is the key, `second` the value).
  class Iterator;
  Iterator begin() const;
  Iterator end() const;

 private:
  const yaml_detail::NodeData* data_ = nullptr;
};

//! What iteration yields: a node (in a sequence) that is also a key/value pair (in a map).
struct YamlPair : YamlNode {
  YamlNode first;
  YamlNode second;
};

class YamlNode::Iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = YamlPair;
  using difference_type = std::ptrdiff_t;
  using pointer = const YamlPair*;
  using reference = const YamlPair&;

  Iterator(const yaml_detail::NodeData* const* at, bool map) : at_(at), map_(map) {}
  const YamlPair& operator*() const;
  const YamlPair* operator->() const { return &**this; }
  Iterator& operator++() {
    at_ += map_ ? 2 : 1;
    return *this;
  }
  bool operator==(const Iterator& other) const { return at_ == other.at_; }
  bool operator!=(const Iterator& other) const { return at_ != other.at_; }

 private:
  const yaml_detail::NodeData* const* at_;
  bool map_;
  mutable YamlPair current_;
};

struct YamlParseProblem {
  enum class Kind { Syntax, TooDeep, TooManyValues };
  Kind kind = Kind::Syntax;
  //! What is wrong, without the position; starts in lower case, no final period.
  std::string message;
  YamlMark mark;
};

//! Every document of one text, with the storage its nodes live in.
class YamlTree {
 public:
  YamlTree();
  ~YamlTree();
  YamlTree(YamlTree&&) noexcept;
  YamlTree& operator=(YamlTree&&) noexcept;

  //! The roots of the documents (--- separated), in order; empty on a problem.
  const std::vector<YamlNode>& documents() const { return documents_; }
  //! The first syntax error or crossed bound; then there are no documents.
  const std::optional<YamlParseProblem>& problem() const { return problem_; }

 private:
  friend YamlTree ParseYaml(std::string_view text);
  struct Storage;
  std::unique_ptr<Storage> storage_;
  std::vector<YamlNode> documents_;
  std::optional<YamlParseProblem> problem_;
};

//! Parses every document of `text` (UTF-8) with libyaml, stopping at the first syntax error
//! or crossed bound (nesting deeper than kMaxNestingDepth, more than kMaxYamlValues values
//! once aliases are expanded, an anchor used inside itself, an alias to no anchor).
YamlTree ParseYaml(std::string_view text);

//! A null node at no position: the root of a file with no document.
YamlNode NullYamlNode();

}  // namespace strata
