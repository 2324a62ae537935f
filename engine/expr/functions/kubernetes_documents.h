#pragma once
// Kubernetes manifests read as kubectl reads them, for the kubernetes_documents functions
// (a Strata extension; functions/kubernetes.cc): a text of YAML documents becomes a list of
// objects, each with its stable identity. Private to engine/expr/functions/.
//
// The rules, each checked against kubectl 1.32 (`kubectl label --local -f FILE -o json`):
// - documents are separated by `---` lines (YAML's own rule: a leading `---`, a comment after
//   it and `...` end markers are fine); documents that are empty or only comments are skipped;
// - a document with a top-level `items` key is a list (kind: List, ConfigMapList, ...: kubectl
//   decides by `items` alone) and stands for its items, in order; a list inside a list is an
//   error, as it is for kubectl;
// - plain scalars are read as YAML 1.1, as kubectl reads them (yaml_value.h: 0644 is 420,
//   yes/on are true);
// - every object needs apiVersion, kind and metadata.name (metadata.generateName alone names
//   no object until the server makes one, so it has no stable identity and is an error).

#include <string>
#include <vector>

#include "engine/value/value.h"

namespace strata::functions {

//! One Kubernetes object read from a manifest text.
struct KubernetesDocument {
  //! "<group>/<Kind>/<namespace>/<name>": group "core" for apiVersion v1, namespace empty when
  //! the object names none (cluster-scoped kinds, or namespaced ones left to the default).
  std::string identity;
  //! The decoded object (apiVersion, kind, metadata, ...).
  Value object;
  //! "<source>:<line>:<col>" of the document, or of the list item it came from.
  std::string location;
};

//! Where a text came from, for positions in errors.
struct ManifestSource {
  //! A file's path, or a label such as "<text>".
  std::string name;
  //! True when the text was rendered from a template that added or removed lines, so that
  //! its line numbers are those of the rendered text and errors say so.
  bool rendered_lines_differ = false;
};

//! The objects of every document of `text`, in order. Throws FunctionError (argument 0)
//! whose message starts with "<source>:<line>:<col>: " for invalid YAML, a document that is
//! not a mapping, a value YAML cannot give (infinity, a null key), and an object without
//! apiVersion, kind or metadata.name.
std::vector<KubernetesDocument> ReadKubernetesDocuments(const std::string& text, const ManifestSource& source);

//! The identity of `object` ("apps/Deployment/kube-system/cluster-autoscaler"), or throws
//! FunctionError (argument 0) "<location>: <what is missing or wrong>".
std::string KubernetesIdentity(const Value& object, const std::string& location);

}  // namespace strata::functions
