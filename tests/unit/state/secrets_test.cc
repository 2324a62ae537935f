#include <gtest/gtest.h>

#include "engine/cli/wiring.h"
#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;
using cli::OpenProjectStore;
using cli::UnencryptedSecretsWarning;

const char kSecret[] = "hunter2-very-secret-value";
const char kOutputSecret[] = "kubeconfig-token-abcdef";

class SecretsTest : public BackendTest {
 protected:
  void Write(StateStore& store) {
    ResourceInstanceState db = Resource("aws_db_instance.main", Value::Object({
                                                                    {"engine", Value::String("postgres")},
                                                                    {"password", Value::String(kSecret).MarkSensitive()},
                                                                }));
    ApplyResources(store, "eks", {db}, std::vector<OutputState>{{"token", Value::String(kOutputSecret), true}});
  }
  std::string AllBytes() {
    return StoredText(path) + StoredText(path + "-wal") + StoredText(path + "-shm");
  }

  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  crypto::StateKey key = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
};

TEST_P(SecretsTest, EncryptedValuesAreNotInTheFile) {
  {
    auto store = OpenAny(Spec(path, &env, key));
    Write(*store);
    auto stage = store->LoadStage("eks", {});
    ASSERT_TRUE(stage.ok()) << stage.status().message();
    const Value& pw = stage->resources[0].attributes.AsMap().at("password");
    EXPECT_EQ(pw.AsString(), kSecret);
    EXPECT_TRUE(pw.IsSensitive());
    EXPECT_EQ(store->LoadOutputs("eks")->at("token").value.AsString(), kOutputSecret);
    auto counts = store->CountSecrets();
    EXPECT_EQ(counts->current_key, 2);
    EXPECT_EQ(counts->in_clear, 0);
  }
  std::string bytes = AllBytes();
  ASSERT_NE(bytes.find("postgres"), std::string::npos);  // the file is readable for clear values...
  EXPECT_EQ(bytes.find(kSecret), std::string::npos);      // ...but not for secrets
  EXPECT_EQ(bytes.find(kOutputSecret), std::string::npos);
  EXPECT_NE(bytes.find(key.id), std::string::npos);       // the key's id is recorded
}

TEST_P(SecretsTest, WithoutAKeySecretsAreInClearAndInitWarns) {
  auto store = OpenAny(Spec(path, &env));
  Write(*store);
  EXPECT_FALSE(store->EncryptsSecrets());
  EXPECT_NE(UnencryptedSecretsWarning(*store).find("STRATA_STATE_KEY"), std::string::npos);
  EXPECT_NE(AllBytes().find(kSecret), std::string::npos);
  EXPECT_EQ(store->CountSecrets()->in_clear, 2);
}

TEST_P(SecretsTest, MissingOrWrongKeyIsAClearError) {
  Write(*OpenAny(Spec(path, &env, key)));

  auto no_key = OpenAny(Spec(path, &env));
  auto missing = no_key->LoadStage("eks", {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StateCode::KeyMissing);
  EXPECT_NE(missing.status().message().find("aws_db_instance.main"), std::string::npos) << missing.status().message();
  EXPECT_NE(missing.status().message().find("password"), std::string::npos);
  EXPECT_EQ(no_key->LoadOutputs("eks").status().code(), StateCode::KeyMissing);

  // Listing needs no key: secrets come back as null, marked.
  auto masked = no_key->LoadStage("eks", {.decrypt_secrets = false});
  ASSERT_TRUE(masked.ok());
  EXPECT_TRUE(masked->resources[0].attributes.AsMap().at("password").IsNull());
  EXPECT_TRUE(masked->resources[0].attributes.AsMap().at("password").IsSensitive());

  auto wrong = OpenAny(Spec(path, &env, Key("not the key")))->LoadStage("eks", {});
  EXPECT_EQ(wrong.status().code(), StateCode::KeyWrong);
  EXPECT_NE(wrong.status().message().find(key.id), std::string::npos);
}

TEST_P(SecretsTest, RotationReencryptsStateAndHistory) {
  Write(*OpenAny(Spec(path, &env, key)));
  crypto::StateKey next = Key("the next key, a passphrase");
  {
    auto options = Spec(path, &env, next);
    options.keys.old_keys.push_back(key);
    auto store = OpenAny(options);
    auto counts = store->CountSecrets();
    EXPECT_EQ(counts->other_key, 2);
    auto lock = store->TryLock({"eks", "apply"});
    EXPECT_EQ(store->Rekey().status().code(), StateCode::LockHeld);  // not during an apply
    store->Unlock("eks", lock->id);
    auto n = store->Rekey();
    ASSERT_TRUE(n.ok()) << n.status().message();
    EXPECT_EQ(*n, 4);  // 2 current + 2 in the history snapshot of serial 1
    EXPECT_EQ(store->CountSecrets()->current_key, 2);
  }
  auto only_new = OpenAny(Spec(path, &env, next));
  auto stage = only_new->LoadStage("eks", {});
  ASSERT_TRUE(stage.ok()) << stage.status().message();
  EXPECT_EQ(stage->resources[0].attributes.AsMap().at("password").AsString(), kSecret);
  EXPECT_TRUE(only_new->LoadSnapshot("eks", 1, {}).ok());
  EXPECT_EQ(OpenAny(Spec(path, &env, key))->LoadStage("eks", {}).status().code(), StateCode::KeyWrong);
}

TEST_P(SecretsTest, EnablingEncryptionLaterEncryptsExistingSecrets) {
  Write(*OpenAny(Spec(path, &env)));
  auto store = OpenAny(Spec(path, &env, key));
  ASSERT_TRUE(store->Rekey().ok());
  EXPECT_EQ(store->CountSecrets()->in_clear, 0);
  store.reset();
  // Old WAL frames and freed pages may still hold the clear text until checkpoint and
  // vacuum; the live rows no longer do.
  auto again = OpenAny(Spec(path, &env, key));
  EXPECT_EQ(again->CountSecrets()->current_key, 2);
}

TEST_P(SecretsTest, OpenProjectStoreReadsTheKeyFile) {
  std::ofstream(dir.File("state.key")) << "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0\n";
  ProjectConfig project;
  project.root_dir = dir.path();
  project.state.key_file = "state.key";
  auto store = OpenProjectStore(project, "default", env);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_TRUE((*store)->EncryptsSecrets());
  EXPECT_TRUE(std::filesystem::exists(dir.File(".strata/state.db")));

  project.state.backend = "consul";
  EXPECT_EQ(OpenProjectStore(project, "default", env).status().code(), StateCode::InvalidArgument);
}

STRATA_ON_EVERY_BACKEND(SecretsTest);

}  // namespace
}  // namespace strata::state
