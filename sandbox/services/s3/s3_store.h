#pragma once
// The sandbox's S3 objects in the world and the XML shapes shared by its handlers.
//
// Storage: World documents under "s3.bucket" keyed by bucket name (names are global: one
// account, every region) holding the bucket's region, tags, versioning status and public
// access block, and "s3.object" keyed "<bucket>/<key>" holding an object (its bytes in
// base64: the objects are small, enough for `aws s3api put-object` and force_destroy). Only
// the current version of an object is kept; a versioned bucket gives it a version id.

#include <string>

#include <pugixml.hpp>

#include "sandbox/protocol/api_error.h"
#include "sandbox/service.h"

namespace strata::sandbox::s3 {

inline constexpr const char* kBucketKind = "s3.bucket";
inline constexpr const char* kObjectKind = "s3.object";
inline constexpr const char* kS3Xmlns = "http://s3.amazonaws.com/doc/2006-03-01/";

//! The bucket `name`; NoSuchBucket (404) when there is none.
Json LoadBucket(ServiceContext& ctx, const std::string& name);
//! The objects of `bucket` whose key starts with `prefix`, in key order.
std::vector<Json> BucketObjects(ServiceContext& ctx, const std::string& bucket, const std::string& prefix = "");
//! The query parameter `name` is present (S3's subresources: "?tagging", "?versioning").
bool HasQuery(const ServiceContext& ctx, const std::string& name);
std::string S3QueryValue(const ServiceContext& ctx, const std::string& name);

//! A document <root xmlns=S3's> to answer with, and the answer holding it.
pugi::xml_document S3Document(const char* root);
Response S3Response(const pugi::xml_document& doc, int status = 200);
//! An answer with no body (204 No Content by default).
Response S3Empty(int status = 204);
//! The request body's root element; MalformedXML (400) when it is not XML.
pugi::xml_node ParseS3Body(const ServiceContext& ctx, pugi::xml_document& doc);

// Handlers (s3_buckets.cc, s3_objects.cc).
Response ListBuckets(ServiceContext& ctx);
Response CreateBucket(ServiceContext& ctx, const std::string& bucket);
Response HeadBucket(ServiceContext& ctx, const std::string& bucket);
Response DeleteBucket(ServiceContext& ctx, const std::string& bucket);
Response GetBucketLocation(ServiceContext& ctx, const std::string& bucket);
Response PutBucketTagging(ServiceContext& ctx, const std::string& bucket);
Response GetBucketTagging(ServiceContext& ctx, const std::string& bucket);
Response DeleteBucketTagging(ServiceContext& ctx, const std::string& bucket);
Response PutBucketVersioning(ServiceContext& ctx, const std::string& bucket);
Response GetBucketVersioning(ServiceContext& ctx, const std::string& bucket);
Response PutPublicAccessBlock(ServiceContext& ctx, const std::string& bucket);
Response GetPublicAccessBlock(ServiceContext& ctx, const std::string& bucket);
Response DeletePublicAccessBlock(ServiceContext& ctx, const std::string& bucket);
Response PutObject(ServiceContext& ctx, const std::string& bucket, const std::string& key);
Response GetObject(ServiceContext& ctx, const std::string& bucket, const std::string& key, bool head);
Response DeleteObject(ServiceContext& ctx, const std::string& bucket, const std::string& key);
Response ListObjectsV2(ServiceContext& ctx, const std::string& bucket);
Response ListObjectVersions(ServiceContext& ctx, const std::string& bucket);

}  // namespace strata::sandbox::s3
