#pragma once
// What a sandbox service sees and answers: one authenticated request, the world, the
// settings and the clock; an answer in the service's own wire format, or an ApiError the
// server renders in that format (EC2's <Response><Errors>, IAM/STS's <ErrorResponse>,
// REST-JSON's x-amzn-ErrorType header and {"message": ...} body). The wire formats
// themselves (Response, ApiError, parameters, XML and JSON writers, error shapes) are the
// protocol layer's, sandbox/protocol/.

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/caller_identity.h"
#include "sandbox/protocol/api_error.h"
#include "sandbox/protocol/response.h"
#include "sandbox/settings.h"
#include "sandbox/world.h"

namespace strata::sandbox {

//! One call, after the server has checked its signature.
struct Request {
  std::string method;  //!< "POST"
  std::string path;    //!< URL-decoded path without the query: "/clusters/demo/node-groups"
  //! URL-decoded query string parameters.
  std::multimap<std::string, std::string> query;
  //! Header names in lower case.
  std::map<std::string, std::string> headers;
  std::string body;

  // From the request's SigV4 credential scope (.../<date>/<region>/<service>/aws4_request).
  std::string service;  //!< "ec2", "iam", "sts", "eks", "autoscaling", "sqs", "ssm", "kms", "events"
  std::string region;   //!< "us-east-1"
  std::string account_id;
  std::string request_id;  //!< a UUID the server assigned; echo it in the answer
  //! Who signed the request (the access key's identity); empty when signatures are not
  //! checked and the key is not one the sandbox issued.
  CallerIdentity caller;

  //! Query-protocol parameters: the form-encoded body (POST) or the URL query (GET),
  //! decoded (sandbox/protocol/query_params.h). "Action" and "Version" are among them.
  std::map<std::string, std::string> Params() const;
  //! The JSON body (REST-JSON); an empty body is {}. Throws ApiError 400
  //! BadRequestException when it is not JSON (sandbox/protocol/json_body.h).
  Json JsonBody() const;
};

//! What a service handler works with. The world is inside a transaction the server
//! commits when the handler returns and rolls back when it throws.
struct ServiceContext {
  World& world;
  const Request& request;
  const SandboxSettings& settings;
  std::chrono::system_clock::time_point now;
  //! https://127.0.0.1:<cluster port>, where EKS clusters' API servers are served.
  std::string cluster_endpoint_base;
  //! PEM of the sandbox CA that signed the cluster endpoint's certificate.
  std::string cluster_ca_pem;
};

class Service {
 public:
  virtual ~Service() = default;
  //! The signing name the server routes by: "ec2", "iam", "sts", "eks".
  virtual std::string name() const = 0;
  virtual Protocol protocol() const = 0;
  //! Answers the call; throws ApiError to refuse it.
  virtual Response Handle(ServiceContext& ctx) = 0;
  //! Makes what the settings say the account already holds (Route 53's seed_hosted_zones),
  //! when the world does not hold it yet. Called once as the server starts, inside a
  //! transaction; `ctx.request` is an empty request.
  virtual void Seed(ServiceContext& ctx) { (void)ctx; }
};

//! The services the sandbox serves, one per signing name.
std::unique_ptr<Service> NewStsService();
std::unique_ptr<Service> NewIamService();
std::unique_ptr<Service> NewEc2Service();
std::unique_ptr<Service> NewEksService();
std::unique_ptr<Service> NewAutoScalingService();
std::unique_ptr<Service> NewSqsService();
std::unique_ptr<Service> NewSsmService();
std::unique_ptr<Service> NewKmsService();
std::unique_ptr<Service> NewEventsService();
std::unique_ptr<Service> NewElbv2Service();
std::unique_ptr<Service> NewAcmService();
std::unique_ptr<Service> NewLogsService();
std::unique_ptr<Service> NewCloudWatchService();
std::unique_ptr<Service> NewRoute53Service();
std::unique_ptr<Service> NewS3Service();
std::unique_ptr<Service> NewSecretsManagerService();
std::unique_ptr<Service> NewCognitoIdpService();
std::unique_ptr<Service> NewEfsService();
std::unique_ptr<Service> NewFsxService();

//! The region the call was signed for ("us-east-1" when its scope names none): where a
//! regional service keeps the objects the call touches.
std::string RegionOf(const ServiceContext& ctx);

//! An ISO 8601 UTC timestamp with milliseconds ("2026-11-22T10:00:00.000Z"), as the query
//! APIs write times.
std::string IsoTime(std::chrono::system_clock::time_point t);
//! Seconds since the epoch with a fraction, as REST-JSON APIs write times.
double EpochSeconds(std::chrono::system_clock::time_point t);

}  // namespace strata::sandbox
