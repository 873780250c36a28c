// The glossary (assets/help/glossary.md): one `## Term` heading per term and a short paragraph,
// shown by the lesson panel's "Glossary" button at every step.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilesim::app {

struct GlossaryEntry {
  std::string term;
  std::string text;  // the paragraph, lines joined with spaces
};
// Terms in file order; text before the first `## ` (the `# Glossary` title) is skipped.
std::vector<GlossaryEntry> parse_glossary(std::string_view markdown);
// Entries whose term or text holds `filter` (case-insensitive; empty: all).
std::vector<const GlossaryEntry*> filter_glossary(const std::vector<GlossaryEntry>& all,
                                                  std::string_view filter);

}  // namespace tilesim::app
