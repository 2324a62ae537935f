#include "sandbox/services/iam/iam_policy_document.h"

#include "providers/aws/http/url.h"

namespace strata::sandbox::iam {

std::string EncodePolicyDocument(const std::string& document) { return aws::UriEncode(document); }

}  // namespace strata::sandbox::iam
