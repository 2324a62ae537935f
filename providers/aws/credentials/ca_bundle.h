#pragma once
// The CA bundle the AWS SDKs trust instead of the system's store, for endpoints behind a
// private CA (a TLS-inspecting proxy, a local emulator with its own CA): the environment
// variable AWS_CA_BUNDLE, else `ca_bundle` in the chosen profile of the shared config file
// (~/.aws/config), the order botocore and aws-sdk-go-v2 read them in.

#include <string>

#include "providers/aws/credentials/environment.h"

namespace strata::aws {

struct CaBundle {
  std::string path;    //!< the PEM file ("~/" expanded); empty: the system's trust store
  std::string origin;  //!< where it was named, for messages: "AWS_CA_BUNDLE", "ca_bundle of profile \"dev\""
};

//! `configured_profile`: the provider's `profile` ("": AWS_PROFILE, AWS_DEFAULT_PROFILE,
//! "default", as for credentials).
CaBundle FindCaBundle(const Environment& env, const std::string& configured_profile);

}  // namespace strata::aws
