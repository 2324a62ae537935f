#include "engine/graph/dag.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace strata {
namespace {

Dag MakeDag(size_t n, const std::vector<std::pair<NodeId, NodeId>>& edges) {
  Dag dag;
  for (size_t i = 0; i < n; ++i) dag.AddNode();
  for (const auto& [from, to] : edges) dag.AddEdge(from, to);
  return dag;
}

using Cycles = std::vector<std::vector<NodeId>>;

TEST(DagTest, NoCycles) {
  Dag dag = MakeDag(4, {{1, 0}, {2, 0}, {3, 1}, {3, 2}});
  EXPECT_TRUE(dag.Cycles().empty());
}

TEST(DagTest, EmptyGraphHasNoCycles) {
  Dag dag;
  EXPECT_TRUE(dag.Cycles().empty());
  EXPECT_TRUE(dag.TopologicalOrder().empty());
}

TEST(DagTest, SelfLoopIsACycle) {
  Dag dag = MakeDag(3, {{1, 1}, {2, 0}});
  EXPECT_EQ(dag.Cycles(), (Cycles{{1}}));
}

TEST(DagTest, TwoCycle) {
  Dag dag = MakeDag(3, {{2, 1}, {1, 2}, {0, 1}});
  EXPECT_EQ(dag.Cycles(), (Cycles{{1, 2}}));
}

TEST(DagTest, ThreeCycleIsListedInDependencyOrderFromTheSmallestNode) {
  // 4 depends on 2, 2 depends on 3, 3 depends on 4: from 2 the walk is 2 -> 3 -> 4.
  Dag dag = MakeDag(5, {{4, 2}, {2, 3}, {3, 4}, {0, 4}, {1, 0}});
  EXPECT_EQ(dag.Cycles(), (Cycles{{2, 3, 4}}));
}

TEST(DagTest, SeveralSeparateCycles) {
  Dag dag = MakeDag(6, {{0, 1}, {1, 0}, {2, 2}, {3, 4}, {4, 5}, {5, 3}});
  Cycles cycles = dag.Cycles();
  std::sort(cycles.begin(), cycles.end());
  EXPECT_EQ(cycles, (Cycles{{0, 1}, {2}, {3, 4, 5}}));
}

TEST(DagTest, LongChainDoesNotOverflowTheStack) {
  Dag dag;
  const size_t n = 50000;
  for (size_t i = 0; i < n; ++i) dag.AddNode();
  for (size_t i = 1; i < n; ++i) dag.AddEdge(i, i - 1);
  EXPECT_TRUE(dag.Cycles().empty());
  dag.AddEdge(0, n - 1);
  Cycles cycles = dag.Cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0].size(), n);
  EXPECT_EQ(cycles[0][0], 0u);
  EXPECT_EQ(cycles[0][1], n - 1);
}

TEST(DagTest, DuplicateEdgesAreIgnored) {
  Dag dag = MakeDag(2, {{1, 0}, {1, 0}});
  EXPECT_EQ(dag.DependenciesOf(1), (std::vector<NodeId>{0}));
  EXPECT_EQ(dag.DependentsOf(0), (std::vector<NodeId>{1}));
}

TEST(DagTest, TopologicalOrderPutsDependenciesFirst) {
  Dag dag = MakeDag(6, {{0, 3}, {3, 5}, {1, 3}, {1, 4}, {4, 5}, {2, 0}});
  std::vector<NodeId> order = dag.TopologicalOrder();
  ASSERT_EQ(order.size(), 6u);
  std::vector<size_t> position(6);
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (NodeId n = 0; n < dag.size(); ++n) {
    for (NodeId d : dag.DependenciesOf(n)) EXPECT_LT(position[d], position[n]) << n << " depends on " << d;
  }
}

TEST(DagTest, TopologicalOrderLeavesOutCycles) {
  Dag dag = MakeDag(3, {{0, 1}, {1, 0}});
  EXPECT_EQ(dag.TopologicalOrder(), (std::vector<NodeId>{2}));
}

TEST(DagTest, DotIsSortedAndQuoted) {
  Dag dag = MakeDag(3, {{0, 1}, {0, 2}, {2, 1}});
  std::vector<std::string> labels = {"output.x", "var.a", "aws_vpc.\"v\""};
  std::string dot = dag.ToDot([&](NodeId n) { return labels[n]; }, "stage");
  EXPECT_EQ(dot,
            "digraph \"stage\" {\n"
            "  compound = \"true\"\n"
            "  newrank = \"true\"\n"
            "  rankdir = \"RL\"\n"
            "  \"aws_vpc.\\\"v\\\"\" [shape = \"box\"]\n"
            "  \"output.x\" [shape = \"box\"]\n"
            "  \"var.a\" [shape = \"box\"]\n"
            "  \"aws_vpc.\\\"v\\\"\" -> \"var.a\"\n"
            "  \"output.x\" -> \"aws_vpc.\\\"v\\\"\"\n"
            "  \"output.x\" -> \"var.a\"\n"
            "}\n");
}

}  // namespace
}  // namespace strata
