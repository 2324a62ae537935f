// The crash promise holds for every resource type only if every type says how an
// interrupted create of it is found again: each managed type of every compiled-in provider
// publishes a CreateRecovery, and the name round-trips through the plan file's spelling.
#include <gtest/gtest.h>

#include "engine/cli/wiring.h"

namespace strata {
namespace {

TEST(RecoveryDeclaredTest, EveryManagedTypeOfEveryProviderDeclaresHowItRecovers) {
  ProviderRegistry registry = cli::DefaultProviders();
  int checked = 0;
  for (const std::string& provider : registry.Names()) {
    for (const ResourceSchema& type : registry.SchemaOf(provider)->resources) {
      EXPECT_NE(type.create_recovery, CreateRecovery::Unspecified)
          << provider << " type " << type.type << " declares no way to find what an interrupted create made";
      ++checked;
    }
  }
  EXPECT_GE(checked, 27) << "the builtin and aws types";
}

TEST(RecoveryDeclaredTest, TypesThatMakeNothingOutsideStateSaySo) {
  SchemaRegistry schemas = cli::DefaultProviders().Schemas();
  for (const char* type : {"null_resource", "terraform_data", "random_id", "random_string", "random_password",
                           "random_integer", "random_uuid", "random_shuffle", "random_pet", "time_sleep",
                           "time_static", "time_rotating"}) {
    EXPECT_EQ(schemas.Find(ResourceMode::Managed, type)->create_recovery, CreateRecovery::StateOnly) << type;
  }
  EXPECT_EQ(schemas.Find(ResourceMode::Managed, "exec")->create_recovery, CreateRecovery::Rerun);
  EXPECT_EQ(schemas.Find(ResourceMode::Managed, "local_file")->create_recovery, CreateRecovery::NaturalKey);
  EXPECT_EQ(schemas.Find(ResourceMode::Managed, "aws_nat_gateway")->create_recovery, CreateRecovery::ClientToken);
  EXPECT_EQ(schemas.Find(ResourceMode::Managed, "aws_vpc")->create_recovery, CreateRecovery::CreateTag);
}

TEST(RecoveryDeclaredTest, NamesRoundTrip) {
  for (CreateRecovery r : {CreateRecovery::ClientToken, CreateRecovery::CreateTag, CreateRecovery::NaturalKey,
                           CreateRecovery::StateOnly, CreateRecovery::Rerun}) {
    EXPECT_EQ(ParseCreateRecovery(CreateRecoveryName(r)), r);
  }
  EXPECT_EQ(ParseCreateRecovery(""), CreateRecovery::Unspecified);
  EXPECT_FALSE(ParseCreateRecovery("hope").has_value());
}

}  // namespace
}  // namespace strata
