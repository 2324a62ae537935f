#include "sandbox/kubernetes/yaml_body.h"

#include <stdexcept>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace strata::sandbox::k8s {
namespace {

nlohmann::json Scalar(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str") return text;  // quoted
  if (text == "null" || text == "~" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  try {
    size_t used = 0;
    long long i = std::stoll(text, &used, 10);
    if (used == text.size()) return i;
    double d = std::stod(text, &used);
    if (used == text.size() && text.find_first_of("0123456789") != std::string::npos &&
        text.find_first_of("xXpP") == std::string::npos)
      return d;
  } catch (const std::exception&) {
  }
  return text;
}

nlohmann::json ToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      return Scalar(node);
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const YAML::Node& item : node) out.push_back(ToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& entry : node) out[entry.first.as<std::string>()] = ToJson(entry.second);
      return out;
    }
  }
  return nullptr;
}

}  // namespace

nlohmann::json ParseYamlBody(const std::string& text) {
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.size() > 1) throw std::runtime_error("the body holds " + std::to_string(docs.size()) + " YAML documents, not one");
    return docs.empty() ? nlohmann::json(nullptr) : ToJson(docs.front());
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace strata::sandbox::k8s
