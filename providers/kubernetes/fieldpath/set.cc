#include "providers/kubernetes/fieldpath/set.h"

#include <algorithm>

namespace strata::kubernetes::fieldpath {
namespace {

bool ChildLess(const Set::Child& child, const PathElement& element) { return child.element < element; }

}  // namespace

void Set::InsertMember(const PathElement& element) {
  auto it = std::lower_bound(members_.begin(), members_.end(), element);
  if (it == members_.end() || !(*it == element)) members_.insert(it, element);
}

Set& Set::ChildOrInsert(const PathElement& element) {
  auto it = std::lower_bound(children_.begin(), children_.end(), element, ChildLess);
  if (it == children_.end() || !(it->element == element)) it = children_.insert(it, Child{element, Set()});
  return it->set;
}

void Set::Insert(const Path& path) {
  if (path.empty()) return;
  Set* node = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) node = &node->ChildOrInsert(path[i]);
  node->InsertMember(path.back());
}

bool Set::Has(const Path& path) const {
  if (path.empty()) return false;
  const Set* node = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    node = node->ChildAt(path[i]);
    if (node == nullptr) return false;
  }
  return node->HasMember(path.back());
}

size_t Set::Size() const {
  size_t n = members_.size();
  for (const Child& child : children_) n += child.set.Size();
  return n;
}

bool Set::HasMember(const PathElement& element) const {
  return std::binary_search(members_.begin(), members_.end(), element);
}

const Set* Set::ChildAt(const PathElement& element) const {
  auto it = std::lower_bound(children_.begin(), children_.end(), element, ChildLess);
  if (it == children_.end() || !(it->element == element)) return nullptr;
  return &it->set;
}

Set Set::WithPrefix(const PathElement& element) const {
  const Set* child = ChildAt(element);
  return child ? *child : Set();
}

void Set::PruneEmptyChildren() {
  children_.erase(std::remove_if(children_.begin(), children_.end(), [](const Child& c) { return c.set.Empty(); }),
                  children_.end());
}

Set Set::Union(const Set& other) const {
  Set out;
  std::set_union(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                 std::back_inserter(out.members_));
  auto a = children_.begin(), b = other.children_.begin();
  while (a != children_.end() || b != other.children_.end()) {
    if (b == other.children_.end() || (a != children_.end() && a->element < b->element)) {
      out.children_.push_back(*a++);
    } else if (a == children_.end() || b->element < a->element) {
      out.children_.push_back(*b++);
    } else {
      out.children_.push_back(Child{a->element, a->set.Union(b->set)});
      ++a, ++b;
    }
  }
  return out;
}

Set Set::Difference(const Set& other) const {
  Set out;
  std::set_difference(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                      std::back_inserter(out.members_));
  for (const Child& child : children_) {
    const Set* theirs = other.ChildAt(child.element);
    out.children_.push_back(Child{child.element, theirs ? child.set.Difference(*theirs) : child.set});
  }
  out.PruneEmptyChildren();
  return out;
}

Set Set::Intersection(const Set& other) const {
  Set out;
  std::set_intersection(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                        std::back_inserter(out.members_));
  for (const Child& child : children_) {
    if (const Set* theirs = other.ChildAt(child.element)) {
      out.children_.push_back(Child{child.element, child.set.Intersection(*theirs)});
    }
  }
  out.PruneEmptyChildren();
  return out;
}

Set Set::RecursiveDifference(const Set& other) const {
  Set out;
  std::set_difference(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                      std::back_inserter(out.members_));
  for (const Child& child : children_) {
    if (other.HasMember(child.element)) continue;
    const Set* theirs = other.ChildAt(child.element);
    out.children_.push_back(Child{child.element, theirs ? child.set.RecursiveDifference(*theirs) : child.set});
  }
  out.PruneEmptyChildren();
  return out;
}

void Set::IterateFrom(Path& prefix, const std::function<void(const Path&)>& visit) const {
  for (const PathElement& member : members_) {
    prefix.push_back(member);
    visit(prefix);
    prefix.pop_back();
  }
  for (const Child& child : children_) {
    prefix.push_back(child.element);
    child.set.IterateFrom(prefix, visit);
    prefix.pop_back();
  }
}

void Set::Iterate(const std::function<void(const Path&)>& visit) const {
  Path prefix;
  IterateFrom(prefix, visit);
}

std::vector<Path> Set::Paths() const {
  std::vector<Path> out;
  Iterate([&](const Path& p) { out.push_back(p); });
  return out;
}

bool Set::operator==(const Set& other) const {
  if (members_ != other.members_ || children_.size() != other.children_.size()) return false;
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!(children_[i].element == other.children_[i].element) || children_[i].set != other.children_[i].set) {
      return false;
    }
  }
  return true;
}

}  // namespace strata::kubernetes::fieldpath
