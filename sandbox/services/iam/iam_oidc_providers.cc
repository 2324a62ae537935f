// OpenID Connect identity providers (what EKS's IRSA trusts): CreateOpenIDConnectProvider,
// GetOpenIDConnectProvider, ListOpenIDConnectProviders, DeleteOpenIDConnectProvider,
// UpdateOpenIDConnectProviderThumbprint, AddClientIDToOpenIDConnectProvider,
// RemoveClientIDFromOpenIDConnectProvider, Tag/Untag/ListOpenIDConnectProviderTags.
//
// Stored in the world (kind "iam_oidc_provider", keyed by ARN) as
//   {"Arn", "Url" (without "https://"), "ClientIDList": [...], "ThumbprintList": [...],
//    "CreateDate", "Tags": [...]}
// The ARN is arn:aws:iam::<account>:oidc-provider/<url without https://>, and IAM answers
// the Url without its scheme too.

#include <algorithm>
#include <cctype>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_tags.h"

namespace strata::sandbox::iam {
namespace {

constexpr size_t kMaxThumbprints = 5;
constexpr size_t kMaxClientIds = 100;

std::string ArnParam(const IamCall& call) {
  return call.params.Length("OpenIDConnectProviderArn", 20, 2048, true);
}

Json LoadProvider(const World& world, const std::string& arn) {
  std::optional<Json> provider = world.Get(kOidcProviderKind, arn);
  if (!provider) throw NoSuchEntity("OpenIDConnect Provider not found for arn " + arn);
  return *provider;
}

void SaveProvider(World& world, const Json& provider) {
  world.Put(kOidcProviderKind, provider["Arn"].get<std::string>(), provider);
}

//! The Url parameter without its scheme; it must be https.
std::string UrlWithoutScheme(const AwsQueryParams& params) {
  std::string url = params.Length("Url", 1, 255, true);
  const std::string scheme = "https://";
  if (url.compare(0, scheme.size(), scheme) != 0 || url.size() == scheme.size()) {
    throw InvalidInput("Invalid openid connect provider URL: " + url +
                       ". The URL must begin with https://");
  }
  std::string rest = url.substr(scheme.size());
  if (rest.find_first_of("?#") != std::string::npos) {
    throw InvalidInput("Invalid openid connect provider URL: " + url +
                       ". The URL cannot contain a query or a fragment.");
  }
  return rest;
}

std::vector<std::string> Thumbprints(const AwsQueryParams& params) {
  std::vector<std::string> prints = params.MemberList("ThumbprintList");
  if (prints.size() > kMaxThumbprints) {
    throw LimitExceeded("Thumbprint list must contain fewer than " +
                        std::to_string(kMaxThumbprints + 1) + " entries.");
  }
  for (const std::string& p : prints) {
    if (p.size() != 40) {
      throw ValidationError("ThumbprintList.member", p, "Member must have length equal to 40");
    }
    if (!std::all_of(p.begin(), p.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; })) {
      throw InvalidInput("Thumbprint " + p + " is not a hexadecimal string.");
    }
  }
  return prints;
}

void CheckClientId(const std::string& id) {
  if (id.empty() || id.size() > 255) {
    throw ValidationError("ClientID", id, "Member must have length between 1 and 255");
  }
}

void WriteStrings(pugi::xml_node parent, const char* name, const Json& values) {
  pugi::xml_node list = parent.append_child(name);
  for (const Json& v : values) AddText(list, "member", v.get<std::string>());
}

void CreateOpenIDConnectProvider(IamCall& call) {
  std::string url = UrlWithoutScheme(call.params);
  std::vector<std::string> client_ids;
  for (const std::string& id : call.params.MemberList("ClientIDList")) {
    CheckClientId(id);
    if (std::find(client_ids.begin(), client_ids.end(), id) == client_ids.end()) {
      client_ids.push_back(id);
    }
  }
  if (client_ids.size() > kMaxClientIds) {
    throw LimitExceeded("Cannot exceed quota for ClientIdsPerOpenIdConnectProvider: 100");
  }
  std::vector<std::string> thumbprints = Thumbprints(call.params);
  std::vector<QueryTag> tags = call.params.Tags();
  std::string arn = "arn:aws:iam::" + call.account() + ":oidc-provider/" + url;
  if (call.world().Get(kOidcProviderKind, arn)) {
    throw EntityAlreadyExists("Provider with url https://" + url + " already exists.");
  }
  Json provider = {{"Arn", arn},
                   {"Url", url},
                   {"ClientIDList", client_ids},
                   {"ThumbprintList", thumbprints},
                   {"CreateDate", call.Now()},
                   {"Tags", Json::array()}};
  SetTags(provider, tags, TagKeys::CaseSensitive);
  SaveProvider(call.world(), provider);
  AddText(call.result, "OpenIDConnectProviderArn", arn);
  WriteTags(call.result, provider);
}

void GetOpenIDConnectProvider(IamCall& call) {
  Json provider = LoadProvider(call.world(), ArnParam(call));
  AddText(call.result, "Url", provider["Url"].get<std::string>());
  WriteStrings(call.result, "ClientIDList", provider["ClientIDList"]);
  WriteStrings(call.result, "ThumbprintList", provider["ThumbprintList"]);
  AddText(call.result, "CreateDate", provider["CreateDate"].get<std::string>());
  WriteTags(call.result, provider);
}

void ListOpenIDConnectProviders(IamCall& call) {
  pugi::xml_node list = call.result.append_child("OpenIDConnectProviderList");
  for (const auto& [arn, provider] : call.world().List(kOidcProviderKind)) {
    AddText(list.append_child("member"), "Arn", arn);
  }
}

void DeleteOpenIDConnectProvider(IamCall& call) {
  // IAM: "This operation is idempotent; it does not fail or return an error if you call the
  // operation for a provider that does not exist."
  call.world().Erase(kOidcProviderKind, ArnParam(call));
}

void UpdateOpenIDConnectProviderThumbprint(IamCall& call) {
  Json provider = LoadProvider(call.world(), ArnParam(call));
  std::vector<std::string> thumbprints = Thumbprints(call.params);
  if (thumbprints.empty()) call.params.Required("ThumbprintList");
  provider["ThumbprintList"] = thumbprints;
  SaveProvider(call.world(), provider);
}

void AddClientIDToOpenIDConnectProvider(IamCall& call) {
  Json provider = LoadProvider(call.world(), ArnParam(call));
  std::string id = call.params.Required("ClientID");
  CheckClientId(id);
  Json& ids = provider["ClientIDList"];
  if (std::find(ids.begin(), ids.end(), id) != ids.end()) return;  // already there: no error
  if (ids.size() >= kMaxClientIds) {
    throw LimitExceeded("Cannot exceed quota for ClientIdsPerOpenIdConnectProvider: 100");
  }
  ids.push_back(id);
  SaveProvider(call.world(), provider);
}

void RemoveClientIDFromOpenIDConnectProvider(IamCall& call) {
  Json provider = LoadProvider(call.world(), ArnParam(call));
  std::string id = call.params.Required("ClientID");
  CheckClientId(id);
  Json& ids = provider["ClientIDList"];
  auto it = std::find(ids.begin(), ids.end(), id);
  if (it == ids.end()) return;  // IAM: removing an absent client id is not an error
  ids.erase(it);
  SaveProvider(call.world(), provider);
}

void TagOpenIDConnectProvider(IamCall& call) {
  Json provider = LoadProvider(call.world(), ArnParam(call));
  SetTags(provider, RequiredTags(call.params), TagKeys::CaseSensitive);
  SaveProvider(call.world(), provider);
}

void UntagOpenIDConnectProvider(IamCall& call) {
  Json provider = LoadProvider(call.world(), ArnParam(call));
  RemoveTags(provider, TagKeysParam(call.params), TagKeys::CaseSensitive);
  SaveProvider(call.world(), provider);
}

void ListOpenIDConnectProviderTags(IamCall& call) {
  WriteTagPage(call, LoadProvider(call.world(), ArnParam(call)));
}

}  // namespace

void AddOidcProviderActions(IamActionTable& table) {
  table["CreateOpenIDConnectProvider"] = {CreateOpenIDConnectProvider, true};
  table["GetOpenIDConnectProvider"] = {GetOpenIDConnectProvider, true};
  table["ListOpenIDConnectProviders"] = {ListOpenIDConnectProviders, true};
  table["DeleteOpenIDConnectProvider"] = {DeleteOpenIDConnectProvider, false};
  table["UpdateOpenIDConnectProviderThumbprint"] = {UpdateOpenIDConnectProviderThumbprint, false};
  table["AddClientIDToOpenIDConnectProvider"] = {AddClientIDToOpenIDConnectProvider, false};
  table["RemoveClientIDFromOpenIDConnectProvider"] = {RemoveClientIDFromOpenIDConnectProvider,
                                                      false};
  table["TagOpenIDConnectProvider"] = {TagOpenIDConnectProvider, false};
  table["UntagOpenIDConnectProvider"] = {UntagOpenIDConnectProvider, false};
  table["ListOpenIDConnectProviderTags"] = {ListOpenIDConnectProviderTags, true};
}

}  // namespace strata::sandbox::iam
