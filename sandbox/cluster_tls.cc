#include "sandbox/cluster_tls.h"

#include <stdexcept>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

constexpr const char* kCaCertSetting = "cluster_ca_cert";
constexpr const char* kCaKeySetting = "cluster_ca_key";
constexpr long kDay = 24 * 60 * 60;

[[noreturn]] void Fail(const std::string& what) {
  char buf[256] = "";
  ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
  ERR_clear_error();
  throw std::runtime_error("sandbox CA: " + what + ": " + buf);
}

void Check(int ok, const char* what) {
  if (ok != 1) Fail(what);
}

struct BioDeleter {
  void operator()(BIO* b) const { BIO_free(b); }
};
using BioPtr = std::unique_ptr<BIO, BioDeleter>;

std::string BioText(BIO* bio) {
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(n));
}

std::string CertPem(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  Check(PEM_write_bio_X509(bio.get(), cert), "writing the certificate");
  return BioText(bio.get());
}

std::string KeyPem(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  Check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr),
        "writing the key");
  return BioText(bio.get());
}

EvpPkeyPtr NewKey() {
  EvpPkeyPtr key(EVP_EC_gen("P-256"));
  if (!key) Fail("generating an EC P-256 key");
  return key;
}

void SetName(X509* cert, const char* common_name, bool issuer_too) {
  X509_NAME* name = X509_get_subject_name(cert);
  Check(X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>("Strata Sandbox"), -1, -1, 0),
        "naming the certificate");
  Check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>(common_name), -1, -1, 0),
        "naming the certificate");
  if (issuer_too) Check(X509_set_issuer_name(cert, name), "setting the issuer");
}

void AddExtension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (!ext) Fail(std::string("making extension ") + value);
  int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  Check(ok, "adding an extension");
}

// A v3 certificate for `key` with a random 128-bit serial, valid from an hour ago (clock
// skew) for `days`.
X509Ptr NewCertificate(EVP_PKEY* key, long days) {
  X509Ptr cert(X509_new());
  if (!cert) Fail("allocating a certificate");
  Check(X509_set_version(cert.get(), 2), "setting the version");
  BIGNUM* serial = BN_new();
  bool serial_ok = serial && BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1 &&
                   BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get())) != nullptr;
  BN_free(serial);
  if (!serial_ok) Fail("making a serial number");
  if (!X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) ||
      !X509_gmtime_adj(X509_getm_notAfter(cert.get()), days * kDay))
    Fail("setting the validity");
  Check(X509_set_pubkey(cert.get(), key), "setting the public key");
  return cert;
}

CertificateAuthority CreateCa() {
  CertificateAuthority ca;
  ca.key = NewKey();
  ca.cert = NewCertificate(ca.key.get(), 3650);
  X509* cert = ca.cert.get();
  SetName(cert, "Strata Sandbox CA", /*issuer_too=*/true);
  AddExtension(cert, cert, NID_basic_constraints, "critical,CA:TRUE");
  AddExtension(cert, cert, NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
  AddExtension(cert, cert, NID_subject_key_identifier, "hash");
  if (X509_sign(cert, ca.key.get(), EVP_sha256()) <= 0) Fail("self-signing the CA");
  ca.cert_pem = CertPem(cert);
  return ca;
}

CertificateAuthority ParseCa(const std::string& cert_pem, const std::string& key_pem) {
  CertificateAuthority ca;
  BioPtr cert_bio(BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size())));
  ca.cert.reset(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
  BioPtr key_bio(BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size())));
  ca.key.reset(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  if (!ca.cert || !ca.key) Fail("reading the stored CA");
  ca.cert_pem = cert_pem;
  return ca;
}

}  // namespace

CertificateAuthority LoadOrCreateCa(World& world) {
  World::Settings stored = world.SettingsOnce({kCaCertSetting, kCaKeySetting}, [] {
    CertificateAuthority ca = CreateCa();
    return World::Settings{{kCaCertSetting, ca.cert_pem}, {kCaKeySetting, KeyPem(ca.key.get())}};
  });
  return ParseCa(stored.at(kCaCertSetting), stored.at(kCaKeySetting));
}

ServerCertificate IssueServerCertificate(const CertificateAuthority& ca) {
  ServerCertificate server;
  server.key = NewKey();
  server.cert = NewCertificate(server.key.get(), 365);
  X509* cert = server.cert.get();
  SetName(cert, "localhost", /*issuer_too=*/false);
  Check(X509_set_issuer_name(cert, X509_get_subject_name(ca.cert.get())), "setting the issuer");
  AddExtension(cert, ca.cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  AddExtension(cert, ca.cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
  AddExtension(cert, ca.cert.get(), NID_ext_key_usage, "serverAuth");
  AddExtension(cert, ca.cert.get(), NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
  AddExtension(cert, ca.cert.get(), NID_subject_key_identifier, "hash");
  AddExtension(cert, ca.cert.get(), NID_authority_key_identifier, "keyid:always");
  if (X509_sign(cert, ca.key.get(), EVP_sha256()) <= 0) Fail("signing the server certificate");
  return server;
}

ClientCertificate IssueClientCertificate(const CertificateAuthority& ca, const std::string& common_name,
                                         const std::vector<std::string>& organizations) {
  EvpPkeyPtr key = NewKey();
  X509Ptr cert = NewCertificate(key.get(), 365);
  X509_NAME* name = X509_get_subject_name(cert.get());
  for (const std::string& organization : organizations) {
    Check(X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
                                     reinterpret_cast<const unsigned char*>(organization.c_str()), -1, -1, 0),
          "naming the client certificate");
  }
  Check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0),
        "naming the client certificate");
  Check(X509_set_issuer_name(cert.get(), X509_get_subject_name(ca.cert.get())), "setting the issuer");
  AddExtension(cert.get(), ca.cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  AddExtension(cert.get(), ca.cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
  AddExtension(cert.get(), ca.cert.get(), NID_ext_key_usage, "clientAuth");
  AddExtension(cert.get(), ca.cert.get(), NID_authority_key_identifier, "keyid:always");
  if (X509_sign(cert.get(), ca.key.get(), EVP_sha256()) <= 0) Fail("signing the client certificate");
  return ClientCertificate{CertPem(cert.get()), KeyPem(key.get())};
}

namespace {

// Accepts every presented chain at the handshake; the request's authentication checks it.
int AcceptAtHandshake(int /*preverify_ok*/, X509_STORE_CTX* /*ctx*/) { return 1; }

}  // namespace

void RequestOptionalClientCertificates(SSL_CTX* ctx, const CertificateAuthority& ca) {
  // Without SSL_VERIFY_FAIL_IF_NO_PEER_CERT a client without a certificate is served.
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, AcceptAtHandshake);
  // Resumed sessions keep their peer certificate; OpenSSL refuses to resume a session of a
  // server that verifies peers unless sessions are tied to a context.
  static const unsigned char kSessionContext[] = "strata-sandbox-cluster-endpoint";
  Check(SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1),
        "setting the session context");
  Check(SSL_CTX_add_client_CA(ctx, ca.cert.get()), "naming the accepted client certificate issuer");
}

}  // namespace strata::sandbox
