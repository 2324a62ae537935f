#include "sandbox/query_service.h"

namespace strata::sandbox {
namespace {

class QueryService final : public Service {
 public:
  QueryService(std::string name, QueryApi api, QueryCallTable actions)
      : name_(std::move(name)), api_(std::move(api)), actions_(std::move(actions)) {}

  std::string name() const override { return name_; }
  Protocol protocol() const override { return Protocol::Query; }

  Response Handle(ServiceContext& ctx) override {
    AwsQueryParams params(ctx.request.Params());
    return AnswerQueryCall(api_, actions_, params, ctx.request.request_id,
                           [&](pugi::xml_node result) {
                             return QueryCall{ctx, params, result};
                           });
  }

 private:
  std::string name_;
  QueryApi api_;
  QueryCallTable actions_;
};

}  // namespace

std::unique_ptr<Service> NewQueryService(std::string name, QueryApi api, QueryCallTable actions) {
  return std::make_unique<QueryService>(std::move(name), std::move(api), std::move(actions));
}

}  // namespace strata::sandbox
