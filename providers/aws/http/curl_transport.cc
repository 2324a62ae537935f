#include "providers/aws/http/curl_transport.h"

#include <mutex>

#include "providers/aws/http/curl_library.h"

namespace strata::aws {
namespace {

size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t WriteHeader(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<HttpHeaders*>(user);
  std::string_view line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();  // a new response (after 100 Continue): keep only the final headers
  } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    headers->emplace_back(std::string(line.substr(0, colon)), std::string(value));
  }
  return size * count;
}

TransportError::Kind ClassifyCurlError(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return TransportError::Kind::Timeout;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
      return TransportError::Kind::Connect;
    // The request may have reached the server: an answer was lost, not refused.
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportError::Kind::Lost;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
      return TransportError::Kind::Tls;
    default:
      return TransportError::Kind::Other;
  }
}

// What a certificate that does not verify was checked against, and how to trust its CA.
std::string TrustHint(const CurlTransportOptions& options) {
  if (!options.trust_hint.empty()) return " (" + options.trust_hint + ")";
  const std::string& ca_bundle = options.ca_bundle;
  if (!ca_bundle.empty()) {
    return " (the server's certificate was checked against the CAs in " + ca_bundle +
           " only, from AWS_CA_BUNDLE or the profile's ca_bundle: add its CA to that file)";
  }
  return " (the server's certificate was checked against the system's trusted CAs: to trust a private CA, "
         "set AWS_CA_BUNDLE, or ca_bundle in the AWS profile, to its PEM file)";
}

// PEM text handed to libcurl without a file; curl copies it (CURL_BLOB_COPY).
void SetBlob(const CurlLibrary& lib, CURL* curl, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  lib.easy_setopt(curl, option, &blob);
}

// Verification on (unless the user asked for insecure), the trust store, the client certificate.
void SetTls(const CurlLibrary& lib, CURL* curl, const CurlTransportOptions& options) {
  lib.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options.insecure ? 0L : 1L);
  lib.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options.insecure ? 0L : 2L);
  if (!options.ca_pem.empty()) {
    SetBlob(lib, curl, CURLOPT_CAINFO_BLOB, options.ca_pem);
  } else if (!options.ca_bundle.empty()) {
    lib.easy_setopt(curl, CURLOPT_CAINFO, options.ca_bundle.c_str());
  }
  if (!options.client_certificate_pem.empty()) {
    SetBlob(lib, curl, CURLOPT_SSLCERT_BLOB, options.client_certificate_pem);
    lib.easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
    SetBlob(lib, curl, CURLOPT_SSLKEY_BLOB, options.client_key_pem);
    lib.easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
  }
}

// Frees the header list when the request is done.
struct HeaderList {
  const CurlLibrary& lib;
  curl_slist* list = nullptr;
  ~HeaderList() { lib.slist_free_all(list); }
  void Add(const std::string& line) { list = lib.slist_append(list, line.c_str()); }
};

}  // namespace

CurlTransport::CurlTransport(CurlTransportOptions options) : options_(std::move(options)) {}

CurlTransport::~CurlTransport() {
  // Handles exist only once the library was loaded.
  for (void* h : idle_) LoadCurl(nullptr)->easy_cleanup(static_cast<CURL*>(h));
}

void* CurlTransport::AcquireHandle() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  return LoadCurl(nullptr)->easy_init();  // Send loaded it
}

void CurlTransport::ReleaseHandle(void* handle) {
  std::lock_guard lock(mu_);
  if (idle_.size() < options_.max_idle_handles) {
    idle_.push_back(handle);
    return;
  }
  LoadCurl(nullptr)->easy_cleanup(static_cast<CURL*>(handle));
}

TransportResult CurlTransport::Send(const HttpRequest& request) {
  std::string load_error;
  const CurlLibrary* loaded = LoadCurl(&load_error);
  if (loaded == nullptr) return TransportError{TransportError::Kind::Other, load_error};
  const CurlLibrary& lib = *loaded;
  CURL* curl = static_cast<CURL*>(AcquireHandle());
  if (curl == nullptr) return TransportError{TransportError::Kind::Other, "curl_easy_init failed"};
  lib.easy_reset(curl);  // keeps the connection cache

  HttpResponse response;
  char error_buffer[CURL_ERROR_SIZE] = {0};
  HeaderList headers{lib};
  bool has_content_type = false;
  for (const auto& [name, value] : request.headers) {
    if (EqualsIgnoreCase(name, "Content-Type")) has_content_type = true;
    // "Name;" sends an empty header; "Name:" would remove it.
    headers.Add(value.empty() ? name + ";" : name + ": " + value);
  }
  headers.Add("Expect:");  // no 100-continue round trip
  if (!has_content_type) headers.Add("Content-Type:");  // no curl default form type

  lib.easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
  SetTls(lib, curl, options_);
  lib.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(request.timeout.count()));
  lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(request.connect_timeout.count()));
  lib.easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
  lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip/deflate, decoded by curl
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);
  lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  lib.easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  lib.easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
  lib.easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);

  if (request.method == "GET") {
    lib.easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else if (request.method == "HEAD") {
    lib.easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else {
    lib.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    lib.easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
  }

  CURLcode code = lib.easy_perform(curl);
  long status = 0;
  if (code == CURLE_OK) lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  // Detach the stack buffers before the handle goes back to the pool.
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  ReleaseHandle(curl);

  if (code != CURLE_OK) {
    std::string message = error_buffer[0] != '\0' ? error_buffer : lib.easy_strerror(code);
    if (code == CURLE_PEER_FAILED_VERIFICATION) message += TrustHint(options_);
    return TransportError{ClassifyCurlError(code), message};
  }
  response.status = int(status);
  return response;
}

}  // namespace strata::aws
