// The glossary's terms (see glossary.hpp).
#include "app/core/glossary.hpp"

#include <algorithm>
#include <cctype>

namespace tilesim::app {
namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}
}  // namespace

std::vector<GlossaryEntry> parse_glossary(std::string_view md) {
  std::vector<GlossaryEntry> out;
  std::size_t pos = 0;
  while (pos < md.size()) {
    std::size_t end = md.find('\n', pos);
    if (end == std::string_view::npos) end = md.size();
    const std::string_view line = md.substr(pos, end - pos);
    if (line.rfind("## ", 0) == 0) {
      out.push_back({trim(line.substr(3)), {}});
    } else if (!out.empty() && !trim(line).empty()) {
      auto& t = out.back().text;
      t += (t.empty() ? "" : " ") + trim(line);
    }
    pos = end + 1;
  }
  return out;
}

std::vector<const GlossaryEntry*> filter_glossary(const std::vector<GlossaryEntry>& all,
                                                  std::string_view filter) {
  std::vector<const GlossaryEntry*> out;
  const std::string f = lower(trim(filter));
  for (const auto& e : all)
    if (f.empty() || lower(e.term).find(f) != std::string::npos ||
        lower(e.text).find(f) != std::string::npos)
      out.push_back(&e);
  return out;
}

}  // namespace tilesim::app
