#include "sandbox/protocol/query_params.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "providers/aws/http/url.h"

namespace strata::sandbox {
namespace {

std::string DecodeFormPart(std::string_view s) {
  std::string plus(s);
  std::replace(plus.begin(), plus.end(), '+', ' ');
  return aws::UriDecode(plus);
}

bool AllDigits(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

void DecodeForm(std::string_view text, std::map<std::string, std::string>& out) {
  while (!text.empty()) {
    size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string key = DecodeFormPart(pair.substr(0, eq));
    out[key] = eq == std::string_view::npos ? "" : DecodeFormPart(pair.substr(eq + 1));
  }
}

std::map<std::string, std::string> QueryProtocolParams(
    const std::string& method, const std::multimap<std::string, std::string>& query,
    const std::string& body) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : query) out[k] = v;
  if (method == "POST") DecodeForm(body, out);
  return out;
}

std::string QueryParams::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::vector<std::string> QueryParams::MemberList(const std::string& name) const {
  std::string prefix = name + ".member.";
  std::vector<std::pair<long, std::string>> found;
  for (auto it = values_.lower_bound(prefix); it != values_.end() && StartsWith(it->first, prefix);
       ++it) {
    std::string index = it->first.substr(prefix.size());
    if (!AllDigits(index)) continue;
    found.emplace_back(std::strtol(index.c_str(), nullptr, 10), it->second);
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [n, value] : found) out.push_back(std::move(value));
  return out;
}

std::map<long, std::map<std::string, std::string>> QueryParams::MemberStructs(
    const std::string& name) const {
  std::string prefix = name + ".member.";
  std::map<long, std::map<std::string, std::string>> out;
  for (auto it = values_.lower_bound(prefix); it != values_.end() && StartsWith(it->first, prefix);
       ++it) {
    std::string rest = it->first.substr(prefix.size());
    size_t dot = rest.find('.');
    if (dot == std::string::npos) continue;
    out[std::strtol(rest.c_str(), nullptr, 10)][rest.substr(dot + 1)] = it->second;
  }
  return out;
}

std::vector<std::string> QueryParams::NumberedMembers(const std::string& prefix) const {
  std::set<long> indices;
  std::string head = prefix + ".";
  for (auto it = values_.lower_bound(head); it != values_.end() && StartsWith(it->first, head);
       ++it) {
    size_t end = head.size();
    while (end < it->first.size() && std::isdigit(static_cast<unsigned char>(it->first[end])))
      ++end;
    if (end == head.size() || end - head.size() > 6) continue;
    if (end < it->first.size() && it->first[end] != '.') continue;
    indices.insert(std::stol(it->first.substr(head.size(), end - head.size())));
  }
  std::vector<std::string> out;
  for (long i : indices) out.push_back(head + std::to_string(i));
  return out;
}

std::vector<std::string> QueryParams::NumberedList(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const std::string& member : NumberedMembers(prefix)) {
    if (Has(member)) out.push_back(Get(member));
  }
  return out;
}

}  // namespace strata::sandbox
