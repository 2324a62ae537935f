#pragma once
// The REST-XML protocol's documents (Route 53, S3): an answer whose root element carries the
// service's namespace, and a request body read as XML. The error shapes are error_shapes.h's.

#include <string>

#include <pugixml.hpp>

#include "sandbox/protocol/response.h"

namespace strata::sandbox {

//! A document <root xmlns="xml_namespace"> (after the XML declaration) to fill.
pugi::xml_document RestXmlDocument(const char* root, const char* xml_namespace);
//! The answer holding `doc` on one line.
Response RestXmlResponse(const pugi::xml_document& doc, int status, const std::string& content_type);
//! Parses `body` into `doc` and returns its root; throws ApiError (400, `error_code`,
//! `message`) when it is not XML.
pugi::xml_node ParseXmlBody(const std::string& body, pugi::xml_document& doc, const std::string& error_code,
                            const std::string& message);

}  // namespace strata::sandbox
