#include "engine/cli/wiring.h"

#include <gtest/gtest.h>

#include "providers/schema_registry.h"

namespace strata {
namespace {

TEST(ProviderRegistryTest, BuiltinIsRegisteredAndServesItsTypes) {
  ProviderRegistry registry = cli::DefaultProviders();
  EXPECT_TRUE(registry.Has("builtin"));
  EXPECT_EQ(registry.ProviderFor(ResourceMode::Managed, "random_password"), "builtin");
  EXPECT_EQ(registry.ProviderFor(ResourceMode::Data, "local_file"), "builtin");
  EXPECT_EQ(registry.ProviderFor(ResourceMode::Managed, "aws_vpc"), "aws");
  EXPECT_FALSE(registry.ProviderFor(ResourceMode::Managed, "aws_nope").has_value());
  std::unique_ptr<Provider> p = registry.Create("builtin");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Name(), "builtin");
  EXPECT_EQ(registry.Create("nope"), nullptr);
}

TEST(ProviderRegistryTest, DefaultSchemasComeFromTheProvider) {
  SchemaRegistry schemas = cli::DefaultSchemas();
  for (const char* type : {"null_resource", "terraform_data", "random_id", "random_string",
                           "random_password", "local_file", "local_sensitive_file", "time_sleep",
                           "exec"}) {
    const ResourceSchema* s = schemas.Find(ResourceMode::Managed, type);
    ASSERT_NE(s, nullptr) << type;
    EXPECT_TRUE(s->attributes.at("id").computed) << type;
  }
  EXPECT_NE(schemas.Find(ResourceMode::Data, "local_file"), nullptr);
  EXPECT_TRUE(schemas.Find(ResourceMode::Managed, "random_password")->attributes.at("result").sensitive);
  EXPECT_EQ(cli::DefaultProviders().Schemas().TypeNames(ResourceMode::Managed),
            schemas.TypeNames(ResourceMode::Managed));
}

TEST(AttributePathTest, PrintsAndWalks) {
  AttrPath p = AttrPath::Of("metadata").Attr("labels").Key("app");
  EXPECT_EQ(p.ToString(), "metadata.labels[\"app\"]");
  EXPECT_EQ(AttrPath::Of("command").Index(0).ToString(), "command[0]");
  Value v = Value::Object({{"metadata", Value::Object({{"labels", Value::Map({{"app", Value::String("web")}})}})}});
  EXPECT_EQ(ValueAtPath(v, p).AsString(), "web");
  EXPECT_TRUE(ValueAtPath(v, AttrPath::Of("nope")).IsNull());
}

}  // namespace
}  // namespace strata
