// Environments in the SQLite store: a store opened for an environment sees only that
// environment's stages — resources, outputs, history, journal and locks — and the
// environment methods create, list and delete them.

#include <gtest/gtest.h>

#include "state/environments.h"
#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

StoreSpec InEnvironment(const std::string& path, StateEnvironment* env, const std::string& environment) {
  StoreSpec o = Spec(path, env);
  o.environment = environment;
  return o;
}

std::vector<OutputState> Outputs(const std::string& value) {
  OutputState o;
  o.name = "vpc_id";
  o.value = Value::String(value);
  return {o};
}

// A state database with its `default` store open; In(NAME) opens another environment's store.
class EnvironmentStoreTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    dflt = OpenAny(Spec(path, &env));
    ASSERT_TRUE(dflt);
  }
  std::unique_ptr<StateStore> In(const std::string& environment) {
    return OpenAny(InEnvironment(path, &env, environment));
  }
  //! Creates `environment` and opens its store.
  std::unique_ptr<StateStore> New(const std::string& environment) {
    EXPECT_TRUE(dflt->CreateEnvironment(environment).ok());
    return In(environment);
  }

  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  std::unique_ptr<StateStore> dflt;
};

TEST(EnvironmentNameTest, FollowsTheNameRules) {
  EXPECT_EQ(InvalidEnvironmentReason("prod"), "");
  EXPECT_EQ(InvalidEnvironmentReason("eu-west_2"), "");
  EXPECT_EQ(InvalidEnvironmentReason("2024"), "");
  EXPECT_NE(InvalidEnvironmentReason(""), "");
  EXPECT_NE(InvalidEnvironmentReason("-prod"), "");
  EXPECT_NE(InvalidEnvironmentReason("prod/eu"), "");
  EXPECT_NE(InvalidEnvironmentReason("pr od"), "");
  EXPECT_NE(InvalidEnvironmentReason(std::string(65, 'a')), "");
}

TEST_P(EnvironmentStoreTest, AnEnvironmentMustExistToBeOpened) {
  auto opened = OpenStore(InEnvironment(path, &env, "prod"));
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StateCode::NotFound);
  EXPECT_NE(opened.status().message().find("strata env new prod"), std::string::npos);
  auto bad = OpenStore(InEnvironment(path, &env, "a/b"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StateCode::InvalidArgument);
}

TEST_P(EnvironmentStoreTest, TwoEnvironmentsKeepSeparateStagesOfTheSameName) {
  auto prod = New("prod");
  ASSERT_TRUE(prod);
  EXPECT_EQ(prod->Environment(), "prod");
  EXPECT_EQ(dflt->Environment(), "default");

  EXPECT_EQ(ApplyResources(*dflt, "eks", {Resource("aws_vpc.main", Value::Object({{"id", Value::String("vpc-dev")}}))},
                           Outputs("vpc-dev")),
            1);
  EXPECT_EQ(ApplyResources(*prod, "eks",
                           {Resource("aws_vpc.main", Value::Object({{"id", Value::String("vpc-prod")}})),
                            Resource("aws_subnet.a")},
                           Outputs("vpc-prod")),
            1);
  EXPECT_EQ(ApplyResources(*prod, "eks", {Resource("aws_subnet.b")}), 2);

  auto dev_state = dflt->LoadStage("eks");
  auto prod_state = prod->LoadStage("eks");
  ASSERT_TRUE(dev_state.ok() && prod_state.ok());
  EXPECT_EQ(dev_state->resources.size(), 1u);
  EXPECT_EQ(prod_state->resources.size(), 3u);
  EXPECT_NE(dev_state->lineage, prod_state->lineage);
  EXPECT_EQ(dflt->LoadOutputs("eks")->at("vpc_id").value.AsString(), "vpc-dev");
  EXPECT_EQ(prod->LoadOutputs("eks")->at("vpc_id").value.AsString(), "vpc-prod");
  EXPECT_EQ(dflt->History("eks")->size(), 1u);
  EXPECT_EQ(prod->History("eks")->size(), 2u);

  // Listings: each store its own stages; ListEnvironments counts both.
  ASSERT_EQ(dflt->ListStages()->size(), 1u);
  ASSERT_EQ(prod->ListStages()->size(), 1u);
  EXPECT_EQ((*prod->ListStages())[0].name, "eks");
  EXPECT_EQ((*prod->ListStages())[0].resource_count, 3);
  auto all = dflt->ListEnvironments();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].name, "default");
  EXPECT_EQ((*all)[0].resources, 1);
  EXPECT_EQ((*all)[1].name, "prod");
  EXPECT_EQ((*all)[1].stages, 1);
  EXPECT_EQ((*all)[1].resources, 3);

  // A stage of one environment not applied in the other has no outputs there.
  EXPECT_EQ(ApplyResources(*prod, "addons", {Resource("null_resource.x")}), 1);
  auto missing = dflt->LoadOutputs("addons");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StateCode::NotFound);
  EXPECT_FALSE(dflt->LoadStage("addons")->exists);
}

TEST_P(EnvironmentStoreTest, LocksAreHeldPerEnvironmentAndNameIt) {
  auto prod = New("prod");
  auto prod2 = In("prod");
  ASSERT_TRUE(prod && prod2);

  auto held = prod->TryLock({"eks", "apply"});
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(held->environment, "prod");
  // The same stage of default is free.
  auto other = dflt->TryLock({"eks", "apply"});
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_FALSE(dflt->CurrentLock("addons")->has_value());
  // The same stage of prod is not, and the message says which environment.
  auto refused = prod2->TryLock({"eks", "plan"});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StateCode::LockHeld);
  EXPECT_NE(refused.status().message().find("stage \"eks\" in environment \"prod\" is locked by"), std::string::npos)
      << refused.status().message();
  // A write to prod under default's lock is refused.
  EXPECT_FALSE(prod->BeginChangeSet(other->id, "eks", "apply").ok());
  auto current = prod2->CurrentLock("eks");
  ASSERT_TRUE(current.ok() && current->has_value());
  EXPECT_EQ((*current)->id, held->id);

  // Deleting an environment with a stage locked is refused.
  auto refused_delete = dflt->DeleteEnvironment("prod", true);
  EXPECT_EQ(refused_delete.code(), StateCode::LockHeld);

  // force-unlock finds a lock by id whatever the environment, and says which.
  auto released = dflt->ForceUnlock(held->id);
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(released->environment, "prod");
  EXPECT_EQ(released->stage, "eks");
  EXPECT_TRUE(dflt->Unlock("eks", other->id).ok());

  // The emergency unlocker releases the environment's lock.
  auto again = prod->TryLock({"eks", "apply"});
  ASSERT_TRUE(again.ok());
  prod->EmergencyUnlocker("eks", again->id)();
  EXPECT_FALSE(prod->CurrentLock("eks")->has_value());
}

TEST_P(EnvironmentStoreTest, PendingOperationsAreTheEnvironments) {
  auto prod = New("prod");
  ASSERT_TRUE(prod);
  auto lock = prod->TryLock({"eks", "apply"});
  auto cs = prod->BeginChangeSet(lock->id, "eks", "apply");
  ASSERT_TRUE(cs.ok());
  ASSERT_TRUE(prod->BeginOperation(*cs, {Addr("aws_vpc.main"), OperationAction::Create, "aws", "tok"}).ok());
  auto pending = prod->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ((*pending)[0].stage, "eks");
  EXPECT_TRUE(dflt->PendingOperations("eks")->empty());
}

TEST_P(EnvironmentStoreTest, CreateAndDeleteFollowTheRules) {
  EXPECT_EQ(dflt->CreateEnvironment("default").code(), StateCode::InvalidArgument);
  EXPECT_EQ(dflt->CreateEnvironment("bad name").code(), StateCode::InvalidArgument);
  ASSERT_TRUE(dflt->CreateEnvironment("staging").ok());
  auto twice = dflt->CreateEnvironment("staging");
  EXPECT_EQ(twice.code(), StateCode::InvalidArgument);
  EXPECT_NE(twice.message().find("already exists"), std::string::npos);

  EXPECT_EQ(dflt->DeleteEnvironment("default", true).code(), StateCode::InvalidArgument);
  EXPECT_EQ(dflt->DeleteEnvironment("nope", false).code(), StateCode::NotFound);
  {
    auto staging = In("staging");
    EXPECT_EQ(staging->DeleteEnvironment("staging", true).code(), StateCode::InvalidArgument);  // its own
    ApplyResources(*staging, "eks", {Resource("aws_vpc.main"), Resource("aws_subnet.a")}, Outputs("v"));
  }
  auto refused = dflt->DeleteEnvironment("staging", false);
  EXPECT_EQ(refused.code(), StateCode::InvalidArgument);
  EXPECT_NE(refused.message().find("2 resource instances (stage eks: 2)"), std::string::npos) << refused.message();
  ASSERT_TRUE(dflt->DeleteEnvironment("staging", true).ok());
  ASSERT_EQ(dflt->ListEnvironments()->size(), 1u);
  EXPECT_FALSE(OpenStore(InEnvironment(path, &env, "staging")).ok());
  // Created again, it starts empty: nothing of the old one is left (history, outputs).
  auto staging = New("staging");
  EXPECT_TRUE(staging->ListStages()->empty());
  EXPECT_TRUE(staging->History("eks")->empty());
  EXPECT_FALSE(staging->LoadOutputs("eks").ok());
  // An empty environment is deleted without -force.
  staging.reset();
  EXPECT_TRUE(dflt->DeleteEnvironment("staging", false).ok());
}

STRATA_ON_EVERY_BACKEND(EnvironmentStoreTest);

}  // namespace
}  // namespace strata::state
