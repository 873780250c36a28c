// Seed quotes (assets/lessons/quotes.json): a figure or statement a seed makes, kept with the
// seed's exact words around it, so a lesson can quote the seed ({quote.003.t4_plain_ms}) and a
// test can check that the seed really says it. The format is in assets/lessons/README.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::scenario {

struct Quote {
  std::string id;               // "003.t4_plain_ms": the seed's number, a point, a name
  std::string seed;             // "003"
  std::string text;             // shown on screen: "130.8 ms"
  std::optional<double> value;  // null for a quoted statement (unit "text")
  std::string unit;             // ms, us, s, TFLOPS, GB/s, B, KB, MB, GB, %, x, count, text
  std::string excerpt;          // the seed's own words around the figure, verbatim
};

struct Quotes {
  std::string source;  // the file read
  std::vector<Quote> quotes;
  const Quote* find(std::string_view id) const;
};

// Throws ScenarioError naming the source and the field (quotes[3].unit: ...).
Quotes parse_quotes(std::string_view text, const std::string& source = "quotes.json");
Quotes load_quotes(const std::filesystem::path& path);
// assets/lessons/quotes.json, read once (an empty set with `source` set when it is missing).
const Quotes& bundled_quotes();

// Digit runs of the quote's text that its excerpt does not hold (empty: every number shown is
// in the seed's words).
std::vector<std::string> digits_missing_from_excerpt(const Quote& q);
// The seed file of a quote in `seeds_dir` (NNN_*.txt), or empty when there is none.
std::filesystem::path seed_file(const std::filesystem::path& seeds_dir, const std::string& seed);
// Whether `excerpt` occurs in `text` once runs of whitespace are made single spaces.
bool contains_normalised(std::string_view text, std::string_view excerpt);

}  // namespace tilesim::scenario
