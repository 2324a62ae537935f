#include "sandbox/json_service.h"

#include <algorithm>

#include "sandbox/protocol/json_response.h"

namespace strata::sandbox {
namespace {

ApiError Validation(const std::string& message) { return ApiError(400, "ValidationException", message); }

class JsonService final : public Service {
 public:
  JsonService(std::string name, JsonApi api, JsonActionTable actions)
      : name_(std::move(name)), api_(std::move(api)), actions_(std::move(actions)) {}

  std::string name() const override { return name_; }
  Protocol protocol() const override { return Protocol::AwsJson; }

  Response Handle(ServiceContext& ctx) override {
    JsonHandler handler = FindHandler(ctx.request);
    Json input = ParseInput(ctx.request.body);
    JsonCall call{ctx, input};
    Json output = handler(call);
    return AwsJsonResponse(output.is_null() ? Json::object() : output, api_.json_version, ctx.request.request_id);
  }

 private:
  JsonHandler FindHandler(const Request& request) const {
    auto header = request.headers.find("x-amz-target");
    std::string target = header == request.headers.end() ? "" : header->second;
    std::string prefix = api_.target_prefix + ".";
    if (target.compare(0, prefix.size(), prefix) == 0) {
      auto it = actions_.find(target.substr(prefix.size()));
      if (it != actions_.end()) return it->second;
    }
    throw ApiError(400, "UnknownOperationException",
                   target.empty() ? "The request names no operation (X-Amz-Target is missing)."
                                  : "Unknown operation " + target + ".");
  }

  static Json ParseInput(const std::string& body) {
    if (body.empty()) return Json::object();
    Json input = Json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (input.is_discarded() || !input.is_object()) {
      throw ApiError(400, "SerializationException", "The request body is not a JSON object.");
    }
    return input;
  }

  std::string name_;
  JsonApi api_;
  JsonActionTable actions_;
};

}  // namespace

std::unique_ptr<Service> NewJsonService(std::string name, JsonApi api, JsonActionTable actions) {
  return std::make_unique<JsonService>(std::move(name), std::move(api), std::move(actions));
}

std::string RequiredJsonString(const Json& input, const std::string& key) {
  auto it = input.find(key);
  if (it == input.end() || it->is_null()) throw Validation("1 validation error detected: Value null at '" + key +
                                                           "' failed to satisfy constraint: Member must not be null");
  if (!it->is_string()) throw Validation("The value of " + key + " must be a string.");
  return it->get<std::string>();
}

std::string OptionalJsonString(const Json& input, const std::string& key) {
  auto it = input.find(key);
  if (it == input.end() || it->is_null()) return "";
  if (!it->is_string()) throw Validation("The value of " + key + " must be a string.");
  return it->get<std::string>();
}

std::map<std::string, std::string> JsonStringMap(const Json& input, const std::string& key) {
  std::map<std::string, std::string> out;
  auto it = input.find(key);
  if (it == input.end() || it->is_null()) return out;
  if (!it->is_object()) throw Validation("The value of " + key + " must be a map of strings.");
  for (const auto& [k, v] : it->items()) {
    if (!v.is_string()) throw Validation("The value of " + key + "." + k + " must be a string.");
    out[k] = v.get<std::string>();
  }
  return out;
}

void AnswerJsonPage(const Json& input, const JsonPaging& paging, const std::vector<Json>& items, size_t page_size,
                    const char* list_member, Json& out) {
  size_t begin = 0;
  std::string token = OptionalJsonString(input, paging.token_member);
  std::string prefix = paging.token_prefix;
  if (!token.empty()) {
    bool ok = token.size() > prefix.size() && token.rfind(prefix, 0) == 0 &&
              token.find_first_not_of("0123456789", prefix.size()) == std::string::npos && token.size() < prefix.size() + 10;
    if (!ok) throw paging.bad_token;
    begin = std::min(items.size(), static_cast<size_t>(std::stoul(token.substr(prefix.size()))));
  }
  size_t end = std::min(items.size(), begin + page_size);
  out[list_member] = Json(std::vector<Json>(items.begin() + static_cast<long>(begin), items.begin() + static_cast<long>(end)));
  if (end < items.size()) out[paging.token_member] = prefix + std::to_string(end);
}

}  // namespace strata::sandbox
