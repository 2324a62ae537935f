#pragma once
// What the create-recovery suites (aws_*_recovery_backend_test.cc) share: a create as the
// engine sends it — a first run whose answer is lost with the process that sent it, then,
// after the crash, CreateResource again with the journal's token and
// resume_interrupted_create — and looks at the emulator behind the provider's back, to
// count what is really there.

#include <pugixml.hpp>

#include <string>

#include "backend_provider_test.h"
#include "providers/aws/http/url.h"
#include "providers/aws/common/tags.h"

namespace strata::aws::backendtest {

class RecoveryTest : public BackendProviderTest {
 protected:
  using BackendProviderTest::BackendProviderTest;

  //! A new token of the engine's shape (32 hex digits), different on every call and in
  //! its first 26 characters (names from a prefix take those).
  static std::string NewToken() {
    static int n = 0;
    std::string digits = std::to_string(++n);
    return digits + std::string(32 - digits.size(), 'c');
  }

  //! CreateResource of `planned` as the engine sends it under `token`: a first run, or
  //! (`resume`) the run after a crash interrupted one.
  ApplyResult CreateAs(const std::string& type, const Value& planned, const std::string& token, bool resume) {
    OperationContext ctx = ctx_;
    ctx.idempotency_token = token;
    ctx.resume_interrupted_create = resume;
    ctx.address = type + ".recovered";
    return provider_.CreateResource(ctx, type, planned);
  }
  //! The interrupted first run. Its answer is not for the provider to see again; the test
  //! keeps it only to compare ids.
  ApplyResult Interrupted(const std::string& type, const Value& planned, const std::string& token) {
    ApplyResult first = CreateAs(type, planned, token, false);
    EXPECT_FALSE(first.diags.HasErrors()) << type << " (first run): " << Text(first.diags);
    return first;
  }
  //! The run after the crash.
  ApplyResult Resume(const std::string& type, const Value& planned, const std::string& token) {
    return CreateAs(type, planned, token, true);
  }
  Value MustResume(const std::string& type, const Value& planned, const std::string& token) {
    ApplyResult r = Resume(type, planned, token);
    EXPECT_FALSE(r.diags.HasErrors()) << type << " (resumed): " << Text(r.diags);
    return r.state;
  }

  //! What a destroy learns of an interrupted create of `planned` under `token`: the object,
  //! `gone` (nothing of ours was made), or neither (the type cannot tell without creating).
  ReadResult FindForDestroy(const std::string& type, const Value& planned, const std::string& token) {
    OperationContext ctx = ctx_;
    ctx.idempotency_token = token;
    ctx.address = type + ".recovered";
    ReadResult r = provider_.FindInterruptedCreate(ctx, type, planned);
    EXPECT_FALSE(r.diags.HasErrors()) << type << " (destroy's look): " << Text(r.diags);
    return r;
  }
  //! FindForDestroy finds the object whose `attr` is `want`.
  void ExpectDestroyFinds(const std::string& type, const Value& planned, const std::string& token,
                          const std::string& attr, const std::string& want) {
    ReadResult r = FindForDestroy(type, planned, token);
    EXPECT_FALSE(r.gone) << type << ": a destroy would not find what the interrupted create made";
    EXPECT_EQ(Str(r.state, attr), want) << type;
  }
  //! FindForDestroy says nothing of this create's was made (warnings allowed).
  void ExpectDestroyFindsNothing(const std::string& type, const Value& planned, const std::string& token) {
    ReadResult r = FindForDestroy(type, planned, token);
    EXPECT_TRUE(r.gone) << type << ": " << FormatValue(r.state);
    EXPECT_TRUE(r.state.IsNull()) << type << ": " << FormatValue(r.state);
  }

  //! Neither `tags` nor `tags_all` of `state` holds the create-token tag.
  static void ExpectNoTokenTag(const Value& state) {
    for (const char* attr : {"tags", "tags_all"}) {
      Value tags = Attr(state, attr);
      EXPECT_TRUE(!tags.IsMapping() || !tags.AsMap().count(kCreateTokenTag))
          << attr << " shows the create-token tag: " << FormatValue(tags);
    }
  }
  //! The error of a recovery that found its natural key taken by someone else's object.
  static void ExpectNotOursError(const ApplyResult& r) {
    ASSERT_TRUE(r.diags.HasErrors()) << "adopted an object this create did not make: " << FormatValue(r.state);
    std::string text = Text(r.diags);
    EXPECT_NE(text.find("was not created by Strata's interrupted create"), std::string::npos) << text;
    EXPECT_NE(text.find("strata import"), std::string::npos) << text;
    EXPECT_TRUE(r.state.IsNull()) << FormatValue(r.state);
  }

  //! "&<name>=<value>", the value URL-encoded.
  static std::string Param(const std::string& name, const std::string& value) {
    return "&" + name + "=" + UriEncode(value);
  }
  //! A query (EC2, IAM) straight to the backend: the body of the answer, or its error code.
  std::string RawEc2(const std::string& params) const {
    RawAnswer answer = RawQuery("ec2", "2016-11-15", params);
    return answer.error.empty() ? answer.body : "error: " + answer.error;
  }
  std::string RawIam(const std::string& params) const {
    RawAnswer answer = RawQuery("iam", "2010-05-08", params);
    return answer.error.empty() ? answer.body : "error: " + answer.error;
  }

  //! The first element named `name` anywhere in the XML `text` (empty when none).
  static pugi::xml_node Find(const pugi::xml_document& doc, const std::string& name) {
    return doc.find_node([&](pugi::xml_node n) { return name == n.name(); });
  }
  //! The text of the first element named `name` in the XML `text`.
  static std::string XmlValue(const std::string& text, const std::string& name) {
    pugi::xml_document doc;
    doc.load_string(text.c_str());
    return Find(doc, name).child_value();
  }
  //! How many <item> (EC2) or <member> (IAM) children the first element named `list` has in
  //! the XML `text`; -1 when there is no such element (an error answer).
  static int CountItems(const std::string& text, const std::string& list) {
    pugi::xml_document doc;
    doc.load_string(text.c_str());
    pugi::xml_node node = Find(doc, list);
    if (!node) return -1;
    int n = 0;
    for (pugi::xml_node child : node.children()) {
      std::string name = child.name();
      if (name == "item" || name == "member") ++n;
    }
    return n;
  }
  //! How many times `what` occurs in `text`.
  static int Occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  //! The EC2 objects `describe` ("DescribeVpcs") lists in `set` ("vpcSet") whose tag `key`
  //! is `value`.
  int CountTagged(const std::string& describe, const std::string& set, const std::string& key,
                  const std::string& value) const {
    return CountItems(RawEc2("Action=" + describe + Param("Filter.1.Name", "tag:" + key) +
                             Param("Filter.1.Value.1", value)),
                      set);
  }
  //! The TagSpecification of a raw EC2 create carrying `token` in the create-token tag.
  static std::string TokenSpecification(const std::string& resource_type, const std::string& token) {
    return Param("TagSpecification.1.ResourceType", resource_type) + Param("TagSpecification.1.Tag.1.Key", kCreateTokenTag) +
           Param("TagSpecification.1.Tag.1.Value", token);
  }
};

}  // namespace strata::aws::backendtest
