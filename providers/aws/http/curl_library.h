#pragma once
// libcurl, loaded the first time an HTTP request needs it instead of when strata starts.
// libcurl pulls in some twenty-five shared libraries of its own (GnuTLS, Kerberos, LDAP,
// SSH, ...); loading and relocating them cost most of a `strata version` or `validate`
// that never speaks HTTP. The functions come from the same libcurl the build compiled
// against (its headers and soname); nothing else about libcurl changes.

#include <curl/curl.h>

#include <string>

namespace strata::aws {

//! The libcurl functions the transport calls, initialised (curl_global_init) once.
struct CurlLibrary {
  CURL* (*easy_init)();
  void (*easy_cleanup)(CURL*);
  void (*easy_reset)(CURL*);
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  CURLcode (*easy_perform)(CURL*);
  const char* (*easy_strerror)(CURLcode);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
};

//! Loads libcurl on the first call (thread-safe) and returns it; nullptr when it cannot be
//! loaded, with `error` saying why and what to install. Later calls return the same answer.
const CurlLibrary* LoadCurl(std::string* error);

}  // namespace strata::aws
