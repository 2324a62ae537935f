#pragma once
// Calling a sandbox query-protocol service (IAM, STS) directly, without the HTTP server:
// a hand-built POST with a form body, an in-memory world, the answer parsed with pugixml
// and an ApiError turned into its status and code.

#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "providers/aws/http/url.h"
#include "sandbox/service.h"

namespace strata::sandbox::testing {

struct QueryResult {
  int status = 0;
  std::string code;     //!< the ApiError code when refused
  std::string message;  //!< the ApiError message when refused
  std::string body;
  std::shared_ptr<pugi::xml_document> doc = std::make_shared<pugi::xml_document>();

  bool ok() const { return status == 200; }
  //! The <ActionResult> element.
  pugi::xml_node result() const { return doc->first_child().first_child(); }
  //! The text at a '/'-separated path under the result ("Role/RoleName").
  std::string Text(const std::string& path) const {
    pugi::xml_node node = result().first_element_by_path(path.c_str());
    return node.child_value();
  }
};

class QueryServiceHarness {
 public:
  QueryServiceHarness(std::unique_ptr<Service> service, std::string signing_name,
                      std::string version)
      : world_(World::Open("")),
        service_(std::move(service)),
        signing_name_(std::move(signing_name)),
        version_(std::move(version)) {}

  World& world() { return *world_; }
  const SandboxSettings& settings() const { return settings_; }

  //! Calls `action` with `params` (name, value pairs); the world change is committed when
  //! the call succeeds and rolled back when it is refused, as the server does.
  QueryResult Call(const std::string& action,
                   const std::vector<std::pair<std::string, std::string>>& params = {},
                   const std::string& method = "POST") {
    aws::QueryParams form = {{"Action", action}, {"Version", version_}};
    form.insert(form.end(), params.begin(), params.end());
    Request request;
    request.method = method;
    request.path = "/";
    if (method == "POST") {
      request.headers["content-type"] = "application/x-www-form-urlencoded; charset=utf-8";
      request.body = aws::EncodeQuery(form);
    } else {
      for (const auto& [k, v] : form) request.query.emplace(k, v);
    }
    request.service = signing_name_;
    request.region = "us-east-1";
    request.account_id = settings_.account_id;
    request.request_id = "req-" + std::to_string(++calls_);
    ServiceContext ctx{*world_, request, settings_, now_, "https://127.0.0.1:1", ""};
    QueryResult out;
    world_->Begin();
    try {
      Response response = service_->Handle(ctx);
      world_->Commit();
      out.status = response.status;
      out.body = response.body;
      out.doc->load_string(response.body.c_str());
    } catch (const ApiError& e) {
      world_->Rollback();
      out.status = e.status;
      out.code = e.code;
      out.message = e.what();
    }
    return out;
  }

 private:
  std::unique_ptr<World> world_;
  std::unique_ptr<Service> service_;
  std::string signing_name_;
  std::string version_;
  SandboxSettings settings_;
  std::chrono::system_clock::time_point now_ =
      std::chrono::sys_days{std::chrono::year{2026} / 3 / 1} + std::chrono::hours{10};
  int calls_ = 0;
};

}  // namespace strata::sandbox::testing
