#pragma once
// A scripted HttpTransport for the kubernetes client's tests: answers by method + path
// (query stripped) from a table, records every request, and counts calls per route.

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "providers/aws/http/http_transport.h"

namespace strata::kubernetes::testing {

class FakeTransport : public aws::HttpTransport {
 public:
  //! Answers for "METHOD /path", used in order; the last one repeats.
  void Answer(const std::string& route, int status, std::string body, aws::HttpHeaders headers = {}) {
    std::lock_guard lock(mu_);
    answers_[route].push_back(aws::HttpResponse{status, std::move(headers), std::move(body)});
  }
  void Fail(const std::string& route, aws::TransportError::Kind kind) {
    std::lock_guard lock(mu_);
    failures_[route] = kind;
  }

  aws::TransportResult Send(const aws::HttpRequest& request) override {
    std::lock_guard lock(mu_);
    requests_.push_back(request);
    std::string url = request.url;
    auto scheme = url.find("://");
    auto path_start = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    std::string path = path_start == std::string::npos ? "/" : url.substr(path_start);
    path = path.substr(0, path.find('?'));
    std::string route = request.method + " " + path;
    ++calls_[route];
    if (auto f = failures_.find(route); f != failures_.end()) return aws::TransportError{f->second, "scripted failure"};
    auto it = answers_.find(route);
    if (it == answers_.end() || it->second.empty()) {
      return aws::HttpResponse{404, {}, R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"no route )" + route + "\"}"};
    }
    aws::HttpResponse r = it->second.front();
    if (it->second.size() > 1) it->second.pop_front();
    return r;
  }

  int Calls(const std::string& route) {
    std::lock_guard lock(mu_);
    return calls_[route];
  }
  std::vector<aws::HttpRequest> Requests() {
    std::lock_guard lock(mu_);
    return requests_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::deque<aws::HttpResponse>> answers_;
  std::map<std::string, aws::TransportError::Kind> failures_;
  std::map<std::string, int> calls_;
  std::vector<aws::HttpRequest> requests_;
};

}  // namespace strata::kubernetes::testing
