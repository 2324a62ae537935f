// TypedProvider, the dispatch every provider made of ResourceTypes shares: calls reach the
// type registered under the name, answers are normalized to the type's schema, unknown
// types and an unconfigured provider are clear errors, and validation is the type's own.
#include <gtest/gtest.h>

#include "providers/typed_provider.h"

namespace strata {
namespace {

using attrs::Computed;
using attrs::Optional;
using attrs::Required;

// A type whose create answers with an attribute outside its schema and leaves one out.
class Widget final : public ResourceType {
 public:
  ResourceSchema Schema() const override {
    return attrs::ManagedSchema("toy_widget", {{"name", Required("string")},
                                               {"color", Optional("string")},
                                               {"secret", Computed("string", true)}});
  }
  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }
  Diagnostics Validate(const Value& config) const override {
    if (attrs::GetString(config, "name") == "bad") return attrs::Error("Bad name", "\"bad\" is not a name.");
    return {};
  }
  ApplyResult Create(const OperationContext&, const Value& planned) override {
    return {Value::Object({{"id", Value::String("w-1")},
                           {"name", attrs::Get(planned, "name")},
                           {"secret", Value::String("s3cr3t")},
                           {"extra", Value::String("dropped")}}),
            {}};
  }
};

class Reading final : public DataSourceType {
 public:
  ResourceSchema Schema() const override {
    ResourceSchema s = attrs::ManagedSchema("toy_reading", {{"value", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }
  ReadResult Read(const OperationContext&, const Value&) override {
    return {Value::Object({{"value", Value::String("v")}, {"noise", Value::Bool(true)}}), false, {}};
  }
};

class ToyProvider final : public TypedProvider {
 public:
  ToyProvider() {
    Add(std::make_unique<Widget>());
    Add(std::make_unique<Reading>());
  }
  std::string Name() const override { return "toy"; }
  Diagnostics Configure(const OperationContext&, const Value&) override {
    configured_ = true;
    return {};
  }

 private:
  ResourceSchema SettingsSchema() const override {
    ResourceSchema s;
    s.type = "toy";
    s.attributes["endpoint"] = Optional("string");
    return s;
  }
  Diagnostics NotReady() const override {
    return configured_ ? Diagnostics() : attrs::Error("Provider not configured", "Configure the toy provider first.");
  }
  bool configured_ = false;
};

std::string FirstSummary(const Diagnostics& diags) { return diags.items().empty() ? "" : diags.items()[0].summary; }
std::string FirstDetail(const Diagnostics& diags) { return diags.items().empty() ? "" : diags.items()[0].detail; }

TEST(TypedProviderTest, SchemaHasTheSettingsAndEveryRegisteredType) {
  ProviderSchema schema = ToyProvider().Schema();
  EXPECT_EQ(schema.provider.type, "toy");
  EXPECT_TRUE(schema.provider.attributes.count("endpoint"));
  ASSERT_EQ(schema.resources.size(), 1u);
  EXPECT_EQ(schema.resources[0].type, "toy_widget");
  EXPECT_EQ(schema.resources[0].create_recovery, CreateRecovery::StateOnly) << "the published schema";
  ASSERT_EQ(schema.data_sources.size(), 1u);
  EXPECT_EQ(schema.data_sources[0].type, "toy_reading");
}

TEST(TypedProviderTest, CallsWaitForConfigure) {
  ToyProvider provider;
  OperationContext ctx;
  ApplyResult early = provider.CreateResource(ctx, "toy_widget", Value::Object({{"name", Value::String("a")}}));
  EXPECT_EQ(FirstSummary(early.diags), "Provider not configured");
  ReadResult data = provider.ReadDataSource(ctx, "toy_reading", Value::Object({}));
  EXPECT_EQ(FirstSummary(data.diags), "Provider not configured");
  provider.Configure(ctx, Value());
  EXPECT_FALSE(provider.CreateResource(ctx, "toy_widget", Value::Object({{"name", Value::String("a")}})).diags.HasErrors());
}

TEST(TypedProviderTest, UnknownTypesAreNamed) {
  ToyProvider provider;
  OperationContext ctx;
  provider.Configure(ctx, Value());
  DeleteResult deleted = provider.DeleteResource(ctx, "toy_gadget", Value::Object({}));
  EXPECT_EQ(FirstSummary(deleted.diags), "Unsupported resource type");
  EXPECT_EQ(FirstDetail(deleted.diags), "The toy provider has no resource type \"toy_gadget\".");
  ReadResult data = provider.ReadDataSource(ctx, "toy_gadget", Value::Object({}));
  EXPECT_EQ(FirstDetail(data.diags), "The toy provider has no data source \"toy_gadget\".");
  EXPECT_EQ(FirstSummary(provider.ValidateResourceConfig(ctx, ResourceMode::Managed, "toy_gadget", Value())),
            "Unsupported resource type");
}

TEST(TypedProviderTest, AnswersAreNormalizedToTheTypesSchema) {
  ToyProvider provider;
  OperationContext ctx;
  provider.Configure(ctx, Value());
  ApplyResult created = provider.CreateResource(ctx, "toy_widget", Value::Object({{"name", Value::String("a")}}));
  ASSERT_FALSE(created.diags.HasErrors());
  const ValueMap& state = created.state.AsMap();
  EXPECT_FALSE(state.count("extra")) << "attributes outside the schema are dropped";
  ASSERT_TRUE(state.count("color"));
  EXPECT_TRUE(state.at("color").IsNull()) << "a missing attribute is null";
  EXPECT_TRUE(state.at("secret").IsSensitive()) << "sensitive attributes are marked";
  ReadResult data = provider.ReadDataSource(ctx, "toy_reading", Value::Object({}));
  EXPECT_FALSE(data.state.AsMap().count("noise"));
}

TEST(TypedProviderTest, ValidationIsTheTypesOwnAndDataSourcesHaveNone) {
  ToyProvider provider;  // validation needs no configuration
  OperationContext ctx;
  Diagnostics bad = provider.ValidateResourceConfig(ctx, ResourceMode::Managed, "toy_widget",
                                                    Value::Object({{"name", Value::String("bad")}}));
  EXPECT_EQ(FirstSummary(bad), "Bad name");
  EXPECT_FALSE(provider.ValidateResourceConfig(ctx, ResourceMode::Managed, "toy_widget",
                                               Value::Object({{"name", Value::String("ok")}}))
                   .HasErrors());
  EXPECT_FALSE(provider.ValidateResourceConfig(ctx, ResourceMode::Data, "toy_reading", Value()).HasErrors());
}

}  // namespace
}  // namespace strata
