#include "engine/expr/functions/graphemes.h"

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include <memory>

namespace strata::functions {
namespace {

bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// ICU's character break iterator for this thread: building one loads rules, so each thread
// keeps its own (an iterator is not safe to share). Null if ICU cannot make one.
icu::BreakIterator* ThreadIterator() {
  thread_local std::unique_ptr<icu::BreakIterator> iterator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> it(icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
    return U_SUCCESS(status) ? std::move(it) : nullptr;
  }();
  return iterator.get();
}

// Cluster boundaries of non-ASCII text as byte offsets (0 first, s.size() last).
std::vector<size_t> Boundaries(std::string_view s) {
  std::vector<size_t> out;
  icu::BreakIterator* it = ThreadIterator();
  UErrorCode status = U_ZERO_ERROR;
  UText* text = it ? utext_openUTF8(nullptr, s.data(), static_cast<int64_t>(s.size()), &status) : nullptr;
  if (!text || U_FAILURE(status)) {
    // No ICU data: fall back to code points, the best count without it.
    for (size_t i = 0; i < s.size(); ++i) {
      if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
    }
    out.push_back(s.size());
    if (text) utext_close(text);
    return out;
  }
  it->setText(text, status);
  for (int32_t b = it->first(); b != icu::BreakIterator::DONE; b = it->next()) out.push_back(static_cast<size_t>(b));
  it->setText(icu::UnicodeString());  // drop the reference to `text` before closing it
  utext_close(text);
  if (out.empty() || out.front() != 0) out.insert(out.begin(), 0);
  if (out.back() != s.size()) out.push_back(s.size());
  return out;
}

}  // namespace

std::vector<std::string_view> Graphemes(std::string_view s) {
  std::vector<std::string_view> out;
  if (IsAscii(s)) {
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
      size_t n = s.compare(i, 2, "\r\n") == 0 ? 2 : 1;
      out.push_back(s.substr(i, n));
      i += n - 1;
    }
    return out;
  }
  std::vector<size_t> bounds = Boundaries(s);
  out.reserve(bounds.size());
  for (size_t i = 0; i + 1 < bounds.size(); ++i) out.push_back(s.substr(bounds[i], bounds[i + 1] - bounds[i]));
  return out;
}

size_t GraphemeCount(std::string_view s) {
  if (IsAscii(s)) {
    size_t crlf = 0;
    for (size_t i = 0; i + 1 < s.size(); ++i) crlf += s[i] == '\r' && s[i + 1] == '\n';
    return s.size() - crlf;
  }
  return Graphemes(s).size();
}

}  // namespace strata::functions
