// providers/terraform_gaps.inc against the types compiled in: a type Strata has is never
// listed as missing, and a missing argument is absent from the type's schema. When a type or
// an argument is added, this fails until the table is regenerated (scripts/terraform_gaps.py).

#include "providers/terraform_gaps.h"

#include <gtest/gtest.h>

#include "engine/cli/wiring.h"

namespace strata {
namespace {

// Whether `schema` has an attribute at the dotted `path`, through nested blocks (objects
// and lists or sets of objects); an attribute of any type takes every path under it.
bool HasPath(const ResourceSchema& schema, const std::string& path) {
  size_t dot = path.find('.');
  auto it = schema.attributes.find(path.substr(0, dot));
  if (it == schema.attributes.end()) return false;
  const Type* type = &it->second.type;
  while (dot != std::string::npos) {
    if (type->kind() == Type::Kind::Any) return true;
    if (type->kind() == Type::Kind::List || type->kind() == Type::Kind::Set) type = &type->element();
    if (type->kind() != Type::Kind::Object) return false;
    size_t next = path.find('.', dot + 1);
    auto member = type->attributes().find(path.substr(dot + 1, next == std::string::npos ? next : next - dot - 1));
    if (member == type->attributes().end()) return false;
    type = &member->second.type;
    dot = next;
  }
  return true;
}

TEST(TerraformGapsTest, TheTableMatchesTheTypesCompiledIn) {
  SchemaRegistry schemas = cli::DefaultSchemas();
  size_t arguments = 0;
  for (ResourceMode mode : {ResourceMode::Managed, ResourceMode::Data}) {
    for (const std::string& type : schemas.TypeNames(mode)) {
      EXPECT_FALSE(terraform_gaps::IsMissingType(mode, type)) << type << " is compiled in: regenerate the table";
      const ResourceSchema* schema = schemas.Find(mode, type);
      ASSERT_NE(schema, nullptr) << type;
      for (const std::string& path : terraform_gaps::MissingArguments(mode, type)) {
        ++arguments;
        EXPECT_FALSE(HasPath(*schema, path)) << type << "." << path << " is in the schema: regenerate the table";
      }
    }
  }
  EXPECT_GT(arguments, 0u);
}

TEST(TerraformGapsTest, AMemberOfAMissingBlockIsMissing) {
  EXPECT_TRUE(terraform_gaps::IsMissingType(ResourceMode::Managed, "aws_sagemaker_domain"));
  EXPECT_FALSE(terraform_gaps::IsMissingType(ResourceMode::Managed, "aws_sagemaker_domainn"));
  EXPECT_TRUE(terraform_gaps::IsMissingArgument(ResourceMode::Managed, "aws_s3_bucket", "website"));
  EXPECT_TRUE(terraform_gaps::IsMissingArgument(ResourceMode::Managed, "aws_s3_bucket", "website.index_document"));
  EXPECT_FALSE(terraform_gaps::IsMissingArgument(ResourceMode::Managed, "aws_s3_bucket", "websitex"));
  EXPECT_FALSE(terraform_gaps::IsMissingArgument(ResourceMode::Data, "aws_s3_bucket", "website"));
}

}  // namespace
}  // namespace strata
