// Runs every case of both AWS SigV4 test suites in shared/testdata/sigv4:
//   aws4_testsuite/             classic layout: canonical request, string to sign,
//                               Authorization header
//   aws-signing-test-suite-v4/  CRT layout: the same for header signing, plus presigned
//                               URLs (canonical request, string to sign, signature and
//                               the signed query parameters)

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/base/hex.h"
#include "providers/aws/signing/sigv4_signer.h"
#include "providers/aws/http/url.h"
#include "test_support.h"

namespace strata::aws {
namespace {

namespace fs = std::filesystem;
using testing::ReadFileOrEmpty;
using testing::SharedTestdata;

constexpr const char* kAccessKey = "AKIDEXAMPLE";
constexpr const char* kSecretKey = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

// EXPECT_EQ that also reports the outcome, so each case is counted on its own.
bool Same(const std::string& actual, const std::string& expected) {
  EXPECT_EQ(actual, expected);
  return actual == expected;
}

TimePoint VectorTime() {
  TimePoint t;
  EXPECT_TRUE(ParseRfc3339("2015-08-30T12:36:00Z", &t));
  return t;
}

// Parses a test-suite request file into an HttpRequest with an absolute URL.
HttpRequest ParseRequestFile(const std::string& text) {
  HttpRequest request;
  size_t eol = text.find('\n');
  std::string first = text.substr(0, eol);
  size_t sp = first.find(' ');
  size_t http = first.rfind(" HTTP/");
  request.method = first.substr(0, sp);
  std::string path = first.substr(sp + 1, http - sp - 1);
  size_t pos = eol == std::string::npos ? text.size() : eol + 1;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    if (line.empty()) {  // blank line: the body follows
      request.body = text.substr(pos);
      break;
    }
    if ((line[0] == ' ' || line[0] == '\t') && !request.headers.empty()) {
      request.headers.back().second += " " + line;  // obs-fold continuation
      continue;
    }
    size_t colon = line.find(':');
    request.headers.emplace_back(line.substr(0, colon), line.substr(colon + 1));
  }
  std::string host = FindHeader(request.headers, "Host").value_or("example.amazonaws.com");
  request.url = "https://" + host + path;
  return request;
}

std::vector<fs::path> CaseDirs(const fs::path& root, const std::string& marker_suffix) {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    const fs::path& dir = entry.path();
    std::string marker = marker_suffix.empty() ? "request.txt"
                                               : dir.filename().string() + marker_suffix;
    if (fs::exists(dir / marker)) dirs.push_back(dir);
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::string LongStsToken(const fs::path& classic_root) {
  std::string readme = ReadFileOrEmpty(classic_root / "post-sts-token" / "readme.txt");
  std::istringstream lines(readme);
  std::string line, token;
  while (std::getline(lines, line))
    if (line.rfind("AQoD", 0) == 0) token = line;
  return token;
}

TEST(SigV4VectorsTest, ClassicSuiteAllCases) {
  const fs::path root = SharedTestdata() / "sigv4" / "aws4_testsuite";
  ASSERT_TRUE(fs::exists(root)) << root;
  const std::string long_token = LongStsToken(root);
  ASSERT_FALSE(long_token.empty());
  auto cases = CaseDirs(root, ".req");
  EXPECT_EQ(cases.size(), 34u);
  int passed = 0;
  for (const auto& dir : cases) {
    const std::string name = dir.filename().string();
    SCOPED_TRACE(name);
    auto file = [&](const char* ext) { return ReadFileOrEmpty(dir / (name + ext)); };
    HttpRequest request = ParseRequestFile(file(".req"));
    Credentials creds{kAccessKey, kSecretKey, "", std::nullopt, "test"};
    SigningOptions options;
    options.region = "us-east-1";
    options.service = "service";
    options.time = VectorTime();
    if (name == "get-vanilla-with-session-token")
      creds.session_token = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";
    if (name == "post-sts-header-before") creds.session_token = long_token;
    if (name == "post-sts-header-after") {
      creds.session_token = long_token;
      options.sign_session_token = false;  // documented variant: token added after signing
    }
    auto details = SignRequest(request, creds, options);
    ASSERT_TRUE(details.ok());
    bool ok = Same(details->canonical_request, file(".creq")) &&
              Same(details->string_to_sign, file(".sts")) &&
              Same(details->authorization, file(".authz")) &&
              Same(FindHeader(request.headers, "Authorization").value_or(""), file(".authz"));
    if (!creds.session_token.empty())
      ok = Same(FindHeader(request.headers, "X-Amz-Security-Token").value_or(""),
                creds.session_token) && ok;
    passed += ok;
  }
  EXPECT_EQ(passed, 34);
}

struct CrtCase {
  HttpRequest request;
  Credentials creds;
  SigningOptions options;
  bool sign_body = false;
  int expires = 0;
};

CrtCase LoadCrtCase(const fs::path& dir) {
  CrtCase c;
  auto ctx = nlohmann::json::parse(ReadFileOrEmpty(dir / "context.json"));
  c.request = ParseRequestFile(ReadFileOrEmpty(dir / "request.txt"));
  c.creds.access_key_id = ctx["credentials"]["access_key_id"];
  c.creds.secret_access_key = ctx["credentials"]["secret_access_key"];
  c.creds.session_token = ctx["credentials"].value("token", "");
  c.options.region = ctx["region"];
  c.options.service = ctx["service"];
  EXPECT_TRUE(ParseRfc3339(ctx["timestamp"].get<std::string>(), &c.options.time));
  c.options.normalize_path = ctx.value("normalize", true);
  c.options.sign_session_token = !ctx.value("omit_session_token", false);
  c.sign_body = ctx.value("sign_body", false);
  c.expires = ctx.value("expiration_in_seconds", 3600);
  return c;
}

std::string AuthorizationLine(const std::string& signed_request) {
  std::istringstream lines(signed_request);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind("Authorization:", 0) == 0) return line.substr(14);
  return "";
}

std::map<std::string, std::string> QueryOf(const std::string& request_line_or_url) {
  std::string s = request_line_or_url.substr(0, request_line_or_url.find('\n'));
  size_t q = s.find('?');
  size_t end = s.rfind(" HTTP/");
  std::string query = s.substr(q + 1, end == std::string::npos ? std::string::npos : end - q - 1);
  std::map<std::string, std::string> out;
  for (auto& [k, v] : ParseQuery(query)) out[k] = v;
  return out;
}

TEST(SigV4VectorsTest, CrtSuiteHeaderSigningAllCases) {
  const fs::path root = SharedTestdata() / "sigv4" / "aws-signing-test-suite-v4";
  auto cases = CaseDirs(root, "");
  EXPECT_EQ(cases.size(), 38u);
  int passed = 0;
  for (const auto& dir : cases) {
    SCOPED_TRACE(dir.filename().string());
    CrtCase c = LoadCrtCase(dir);
    c.options.add_content_sha256_header = c.sign_body;
    auto details = SignRequest(c.request, c.creds, c.options);
    ASSERT_TRUE(details.ok());
    bool ok =
        Same(details->canonical_request, ReadFileOrEmpty(dir / "header-canonical-request.txt")) &&
        Same(details->string_to_sign, ReadFileOrEmpty(dir / "header-string-to-sign.txt")) &&
        Same(details->signature, ReadFileOrEmpty(dir / "header-signature.txt")) &&
        Same(details->authorization,
             AuthorizationLine(ReadFileOrEmpty(dir / "header-signed-request.txt")));
    passed += ok;
  }
  EXPECT_EQ(passed, 38);
}

TEST(SigV4VectorsTest, CrtSuitePresignedUrlAllCases) {
  const fs::path root = SharedTestdata() / "sigv4" / "aws-signing-test-suite-v4";
  auto cases = CaseDirs(root, "");
  EXPECT_EQ(cases.size(), 38u);
  int passed = 0;
  for (const auto& dir : cases) {
    SCOPED_TRACE(dir.filename().string());
    CrtCase c = LoadCrtCase(dir);
    auto details = PresignRequest(c.request, c.creds, c.options, std::chrono::seconds(c.expires));
    ASSERT_TRUE(details.ok());
    bool ok =
        Same(details->canonical_request, ReadFileOrEmpty(dir / "query-canonical-request.txt")) &&
        Same(details->string_to_sign, ReadFileOrEmpty(dir / "query-string-to-sign.txt")) &&
        Same(details->signature, ReadFileOrEmpty(dir / "query-signature.txt"));
    // The suite's signed URL lists parameters in another order: compare them as a set.
    auto expected_query = QueryOf(ReadFileOrEmpty(dir / "query-signed-request.txt"));
    EXPECT_EQ(QueryOf(c.request.url), expected_query);
    ok = ok && QueryOf(c.request.url) == expected_query;
    EXPECT_FALSE(FindHeader(c.request.headers, "Authorization").has_value());
    passed += ok;
  }
  EXPECT_EQ(passed, 38);
}

TEST(SigV4SignerTest, DerivedSigningKeyMatchesSuiteReadme) {
  EXPECT_EQ(base::HexEncode(DeriveSigningKey(kSecretKey, "20150830", "us-east-1", "service")),
            "938127b5336810ddb6a5d6af445fcac9e371f9ed418ed386b022aed82901be75");
}

TEST(SigV4SignerTest, S3StyleOptionsKeepThePathAsIs) {
  SigningOptions s3;
  s3.normalize_path = false;
  s3.double_encode_path = false;
  EXPECT_EQ(CanonicalUri("/my-object//example//photo.user", s3), "/my-object//example//photo.user");
  EXPECT_EQ(CanonicalUri("/a%20b", s3), "/a%20b");
  SigningOptions normal;
  EXPECT_EQ(CanonicalUri("/my-object//example//photo.user", normal), "/my-object/example/photo.user");
  EXPECT_EQ(CanonicalUri("/a%20b", normal), "/a%2520b");  // double encoding
  EXPECT_EQ(CanonicalUri("/a/b/..", normal), "/a/");
  EXPECT_EQ(CanonicalUri("", normal), "/");
}

TEST(SigV4SignerTest, UnparseableUrlIsAnErrorNotACrash) {
  HttpRequest request;
  request.url = "not a url";
  Credentials creds{kAccessKey, kSecretKey, "", std::nullopt, "test"};
  SigningOptions options;
  auto r = SignRequest(request, creds, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "InvalidConfiguration");
}

}  // namespace
}  // namespace strata::aws
