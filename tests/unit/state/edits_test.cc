#include <gtest/gtest.h>

#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

class EditsTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    ResourceInstanceState subnet = Resource("aws_subnet.a");
    subnet.dependencies = {"aws_vpc.main"};
    ApplyResources(*store, "eks",
                   {Resource("aws_vpc.main"), subnet, Resource("aws_instance.web[0]"), Resource("aws_instance.web[1]"),
                    Resource("module.net.aws_vpc.x")});
    lock = *store->TryLock({"eks", "state"});
  }
  std::vector<std::string> Addresses() {
    std::vector<std::string> out;
    auto stage = store->LoadStage("eks", {});
    for (const auto& r : stage->resources) out.push_back(r.addr.ToString());
    return out;
  }

  TempDir dir;
  FakeEnvironment env;
  std::unique_ptr<StateStore> store = OpenAny(Spec(dir.File("state.db"), &env));
  LockInfo lock;
};

TEST_P(EditsTest, RemoveInstancesResourcesAndModules) {
  auto serial = store->RemoveResources(lock.id, "eks", {"aws_instance.web[1]"});
  ASSERT_TRUE(serial.ok()) << serial.status().message();
  EXPECT_EQ(*serial, 2);
  ASSERT_TRUE(store->RemoveResources(lock.id, "eks", {"aws_instance.web", "module.net"}).ok());
  EXPECT_EQ(Addresses(), (std::vector<std::string>{"aws_subnet.a", "aws_vpc.main"}));
}

TEST_P(EditsTest, RemoveIsAllOrNothing) {
  auto r = store->RemoveResources(lock.id, "eks", {"aws_vpc.main", "aws_vpc.nope"});
  EXPECT_EQ(r.status().code(), StateCode::NotFound);
  EXPECT_NE(r.status().message().find("aws_vpc.nope"), std::string::npos);
  EXPECT_EQ(Addresses().size(), 5u);
  EXPECT_EQ(store->LoadStage("eks", {})->serial, 1);
}

TEST_P(EditsTest, MoveRenamesAndRewritesDependencies) {
  auto serial = store->MoveResource(lock.id, "eks", "aws_vpc.main", "aws_vpc.primary");
  ASSERT_TRUE(serial.ok()) << serial.status().message();
  auto stage = store->LoadStage("eks", {});
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.main")), nullptr);
  ASSERT_NE(stage->FindResource(Addr("aws_vpc.primary")), nullptr);
  EXPECT_EQ(stage->FindResource(Addr("aws_subnet.a"))->dependencies, std::vector<std::string>{"aws_vpc.primary"});
}

TEST_P(EditsTest, MoveAllInstancesOfAResourceAndIntoAModule) {
  ASSERT_TRUE(store->MoveResource(lock.id, "eks", "aws_instance.web", "aws_instance.app").ok());
  ASSERT_TRUE(store->MoveResource(lock.id, "eks", "aws_subnet.a", "module.net.aws_subnet.a").ok());
  EXPECT_EQ(Addresses(), (std::vector<std::string>{"aws_instance.app[0]", "aws_instance.app[1]", "aws_vpc.main",
                                                   "module.net.aws_subnet.a", "module.net.aws_vpc.x"}));
}

TEST_P(EditsTest, MoveRefusals) {
  EXPECT_EQ(store->MoveResource(lock.id, "eks", "aws_vpc.main", "aws_subnet.a").status().code(),
            StateCode::InvalidArgument);  // types differ
  EXPECT_EQ(store->MoveResource(lock.id, "eks", "aws_vpc.main", "module.net.aws_vpc.x").status().code(),
            StateCode::InvalidArgument);  // destination taken
  EXPECT_EQ(store->MoveResource(lock.id, "eks", "aws_vpc.nope", "aws_vpc.x").status().code(), StateCode::NotFound);
  EXPECT_EQ(store->MoveResource(lock.id, "eks", "not an address", "aws_vpc.x").status().code(),
            StateCode::InvalidArgument);
}

// state mv across types: the engine's converter gives each instance's new state (a secret
// in it sealed again); a refusal moves nothing.
TEST_P(EditsTest, MoveAcrossTypesWritesTheConvertedStateOrNothing) {
  ConvertMoved convert = [](const ResourceInstanceState& from, const ResourceInstanceAddr& to)
      -> StateResult<ResourceInstanceState> {
    EXPECT_EQ(from.addr.ToString(), "aws_vpc.main");
    ResourceInstanceState out = from;
    out.addr = to;
    out.schema_version = 2;
    out.attributes = Value::Object({{"name", Value::String("net")}, {"token", Value::String("s3cret").MarkSensitive()}});
    return out;
  };
  auto serial = store->MoveResource(lock.id, "eks", "aws_vpc.main", "aws_network.main", convert);
  ASSERT_TRUE(serial.ok()) << serial.status().message();
  auto stage = store->LoadStage("eks", {});
  const ResourceInstanceState* moved = stage->FindResource(Addr("aws_network.main"));
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.main")), nullptr);
  EXPECT_EQ(moved->schema_version, 2);
  EXPECT_EQ(moved->attributes.AsMap().at("name").AsString(), "net");
  EXPECT_TRUE(moved->attributes.AsMap().at("token").IsSensitive());
  EXPECT_EQ(stage->FindResource(Addr("aws_subnet.a"))->dependencies, std::vector<std::string>{"aws_network.main"});

  ConvertMoved refuse = [](const ResourceInstanceState&, const ResourceInstanceAddr&) -> StateResult<ResourceInstanceState> {
    return StateStatus::Error(StateCode::InvalidArgument, "aws_instance.web[0] cannot move to aws_vm.web[0]: no");
  };
  auto refused = store->MoveResource(lock.id, "eks", "aws_instance.web", "aws_vm.web", refuse);
  EXPECT_EQ(refused.status().code(), StateCode::InvalidArgument);
  EXPECT_NE(refused.status().message().find("cannot move"), std::string::npos);
  EXPECT_NE(store->LoadStage("eks", {})->FindResource(Addr("aws_instance.web[1]")), nullptr);
}

// A moved entry across types: the rename writes the converted object in the same step.
TEST_P(EditsTest, RenameAcrossTypesWritesTheConvertedObject) {
  auto cs = store->BeginChangeSet(lock.id, "eks", "apply");
  ASSERT_TRUE(cs.ok()) << cs.status().message();
  ResourceInstanceState converted = Resource("aws_network.main", Value::Object({{"name", Value::String("net")}}));
  converted.schema_version = 3;
  ASSERT_TRUE(store->RenameResource(*cs, Addr("aws_vpc.main"), Addr("aws_network.main"), &converted).ok());
  ASSERT_TRUE(store->CommitChangeSet(*cs, std::nullopt).ok());
  auto stage = store->LoadStage("eks", {});
  const ResourceInstanceState* moved = stage->FindResource(Addr("aws_network.main"));
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->addr.resource.type, "aws_network");
  EXPECT_EQ(moved->schema_version, 3);
  EXPECT_EQ(moved->attributes.AsMap().at("name").AsString(), "net");
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.main")), nullptr);
}

TEST_P(EditsTest, PushChecksLineageAndSerial) {
  auto current = *store->LoadStage("eks", {});
  StageState pushed = current;
  pushed.resources.resize(1);

  StageState foreign = pushed;
  foreign.lineage = "00000000-0000-4000-8000-000000000000";
  auto lineage = store->ReplaceStage(lock.id, foreign, {});
  EXPECT_EQ(lineage.status().code(), StateCode::LineageMismatch);
  EXPECT_NE(lineage.status().message().find("-force"), std::string::npos);

  // Same serial as stored: based on the latest state, accepted.
  auto ok = store->ReplaceStage(lock.id, pushed, {});
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(*ok, 2);
  EXPECT_EQ(store->LoadStage("eks", {})->resources.size(), 1u);

  // The pulled copy at serial 1 is now older: refused, unless forced.
  auto old = store->ReplaceStage(lock.id, current, {});
  EXPECT_EQ(old.status().code(), StateCode::SerialConflict);
  ReplaceOptions force;
  force.force = true;
  auto forced = store->ReplaceStage(lock.id, foreign, force);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(store->LoadStage("eks", {})->lineage, foreign.lineage);

  // A higher serial is kept.
  StageState ahead = *store->LoadStage("eks", {});
  ahead.serial = 10;
  EXPECT_EQ(*store->ReplaceStage(lock.id, ahead, {}), 10);
}

STRATA_ON_EVERY_BACKEND(EditsTest);

}  // namespace
}  // namespace strata::state
