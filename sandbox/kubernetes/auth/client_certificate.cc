#include "sandbox/kubernetes/auth/client_certificate.h"

#include <memory>

#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

namespace strata::sandbox::k8s_auth {
namespace {

struct StoreDeleter {
  void operator()(X509_STORE* s) const { X509_STORE_free(s); }
};
struct StoreCtxDeleter {
  void operator()(X509_STORE_CTX* c) const { X509_STORE_CTX_free(c); }
};
struct CertDeleter {
  void operator()(X509* x) const { X509_free(x); }
};

std::string EntryText(X509_NAME_ENTRY* entry) {
  unsigned char* utf8 = nullptr;
  int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry));
  if (n < 0) return "";
  std::string text(reinterpret_cast<char*>(utf8), static_cast<size_t>(n));
  OPENSSL_free(utf8);
  return text;
}

KubeUser UserOf(X509* cert) {
  KubeUser user;
  X509_NAME* subject = X509_get_subject_name(cert);
  for (int i = 0; i < X509_NAME_entry_count(subject); ++i) {
    X509_NAME_ENTRY* entry = X509_NAME_get_entry(subject, i);
    int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry));
    if (nid == NID_commonName) user.name = EntryText(entry);
    if (nid == NID_organizationName) user.groups.push_back(EntryText(entry));
  }
  user.groups.push_back(kAuthenticatedGroup);
  return user;
}

}  // namespace

ClientCertificateCheck VerifyCertificate(X509* cert, X509* ca) {
  ClientCertificateCheck check;
  if (!cert) return check;
  check.presented = true;
  std::unique_ptr<X509_STORE, StoreDeleter> store(X509_STORE_new());
  std::unique_ptr<X509_STORE_CTX, StoreCtxDeleter> ctx(X509_STORE_CTX_new());
  if (!store || !ctx || X509_STORE_add_cert(store.get(), ca) != 1 ||
      X509_STORE_CTX_init(ctx.get(), store.get(), cert, nullptr) != 1) {
    check.reason = "the client certificate could not be checked (OpenSSL failed)";
    return check;
  }
  // The purpose makes OpenSSL refuse certificates not meant for client authentication.
  X509_STORE_CTX_set_purpose(ctx.get(), X509_PURPOSE_SSL_CLIENT);
  if (X509_verify_cert(ctx.get()) != 1) {
    check.reason = std::string("x509: the client certificate does not verify against the sandbox CA: ") +
                   X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx.get()));
    return check;
  }
  KubeUser user = UserOf(cert);
  if (user.name.empty()) {
    check.reason = "x509: the client certificate's subject has no common name (the user name)";
    return check;
  }
  check.user = std::move(user);
  return check;
}

ClientCertificateCheck VerifyClientCertificate(const SSL* ssl, X509* ca) {
  if (!ssl) return ClientCertificateCheck{};
  std::unique_ptr<X509, CertDeleter> cert(SSL_get1_peer_certificate(ssl));
  return VerifyCertificate(cert.get(), ca);
}

}  // namespace strata::sandbox::k8s_auth
