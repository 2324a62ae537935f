#pragma once
// A set of field paths, kept as structured-merge-diff keeps it: a trie whose nodes hold
// the path elements that end there ("members", the "." of FieldsV1) and the elements that
// lead further ("children"). A path can be both a member and have children (a map-list
// item that is owned itself and whose fields are owned: {".":{},"f:image":{}}).
//
// Sets are values: copyable, comparable, never shared. The operations follow
// structured-merge-diff's fieldpath.Set exactly — in particular Difference removes members
// only (a member in the other set does not remove this set's children beneath it);
// RecursiveDifference removes whole subtrees.

#include <functional>
#include <vector>

#include "providers/kubernetes/fieldpath/path_element.h"

namespace strata::kubernetes::fieldpath {

class Set {
 public:
  struct Child;  // an element that leads further, and the set beneath it

  Set() = default;

  //! Adds `path` as a member (its ancestors become children, not members). An empty
  //! path is ignored.
  void Insert(const Path& path);
  //! True when `path` is a member (not merely a prefix of one).
  bool Has(const Path& path) const;
  //! No members anywhere.
  bool Empty() const { return members_.empty() && children_.empty(); }
  //! How many members, at every depth.
  size_t Size() const;

  //! True when `element` is a member at this level.
  bool HasMember(const PathElement& element) const;
  //! The set beneath `element` at this level, or nullptr.
  const Set* ChildAt(const PathElement& element) const;
  //! The set beneath `element`, empty when there is none.
  Set WithPrefix(const PathElement& element) const;

  Set Union(const Set& other) const;
  //! Members of this set that are not members of `other`.
  Set Difference(const Set& other) const;
  Set Intersection(const Set& other) const;
  //! This set without every path that is, or lies beneath, a member of `other`.
  Set RecursiveDifference(const Set& other) const;

  //! Every member path, members of a node before its children's, each level in order.
  void Iterate(const std::function<void(const Path&)>& visit) const;
  std::vector<Path> Paths() const;

  const std::vector<PathElement>& members() const { return members_; }
  const std::vector<Child>& children() const { return children_; }

  bool operator==(const Set& other) const;
  bool operator!=(const Set& other) const { return !(*this == other); }

 private:
  Set& ChildOrInsert(const PathElement& element);
  void IterateFrom(Path& prefix, const std::function<void(const Path&)>& visit) const;
  void InsertMember(const PathElement& element);
  void PruneEmptyChildren();

  std::vector<PathElement> members_;  // sorted, unique
  std::vector<Child> children_;       // sorted by element, unique, never empty sets
};

struct Set::Child {
  PathElement element;
  Set set;
};

}  // namespace strata::kubernetes::fieldpath
