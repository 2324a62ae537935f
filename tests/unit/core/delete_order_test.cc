// The delete order of an apply: dependents go first, whether a dependency names an
// instance or its whole resource; what is not being deleted orders nothing.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/core/delete_order.h"

namespace strata {
namespace {

ResourceInstanceChange Delete(const std::string& address, std::vector<std::string> dependencies) {
  ResourceInstanceChange c;
  c.addr = *ParseResourceInstanceAddr(address).addr;
  c.action = Action::Delete;
  c.dependencies = std::move(dependencies);
  return c;
}

// Position of each node in the walk order (dependencies first, so deleted first).
std::vector<size_t> Positions(const Dag& dag) {
  std::vector<NodeId> order = dag.TopologicalOrder();
  std::vector<size_t> at(order.size());
  for (size_t i = 0; i < order.size(); ++i) at[order[i]] = i;
  return at;
}

TEST(DeleteOrderTest, DependentsAreDeletedFirst) {
  ResourceInstanceChange vpc = Delete("aws_vpc.main", {});
  ResourceInstanceChange subnet0 = Delete("aws_subnet.a[0]", {"aws_vpc.main"});
  ResourceInstanceChange subnet1 = Delete("aws_subnet.a[1]", {"aws_vpc.main"});
  ResourceInstanceChange nat = Delete("aws_nat_gateway.gw", {"aws_subnet.a[0]", "aws_eip.ip", "aws_vpc.other"});
  ResourceInstanceChange eip = Delete("aws_eip.ip", {});
  ResourceInstanceChange route = Delete("aws_route.r", {"aws_subnet.a"});  // the whole resource
  std::vector<const ResourceInstanceChange*> deletes{&vpc, &subnet0, &subnet1, &nat, &eip, &route};
  Dag dag = DeleteOrder(deletes);
  ASSERT_EQ(dag.size(), deletes.size());
  EXPECT_TRUE(dag.Cycles().empty());
  std::vector<size_t> at = Positions(dag);
  EXPECT_LT(at[1], at[0]) << "a subnet before its VPC";
  EXPECT_LT(at[2], at[0]);
  EXPECT_LT(at[3], at[1]) << "the NAT gateway before its subnet";
  EXPECT_LT(at[3], at[4]) << "the NAT gateway before the address it holds";
  EXPECT_LT(at[5], at[1]) << "a dependency on the whole resource orders every instance";
  EXPECT_LT(at[5], at[2]);
  EXPECT_TRUE(dag.DependenciesOf(4).size() == 1 && dag.DependenciesOf(4)[0] == 3);
  EXPECT_TRUE(dag.DependenciesOf(3).empty()) << "aws_vpc.other is not being deleted: it orders nothing";
}

}  // namespace
}  // namespace strata
