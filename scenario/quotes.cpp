// Seed quotes (see quotes.hpp).
#include "scenario/quotes.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "scenario/scenario.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

const char* const kUnits[] = {"ms", "us", "s", "TFLOPS", "GB/s",  "B",   "KB",
                              "MB", "GB", "%", "x",      "count", "text"};

std::string normalise(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::string> digit_runs(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

const Quote* Quotes::find(std::string_view id) const {
  for (const auto& q : quotes)
    if (q.id == id) return &q;
  return nullptr;
}

Quotes parse_quotes(std::string_view text, const std::string& source) {
  Quotes out;
  out.source = source;
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw ScenarioError(source + ": not valid JSON: " + e.what());
  }
  auto fail = [&](const std::string& where, const std::string& msg) {
    throw ScenarioError(source + ": " + where + ": " + msg);
  };
  if (!j.is_object() || !j.contains("quotes") || !j["quotes"].is_array())
    fail("quotes", "the top level must be {\"quotes\": [...]}");
  const json& list = j["quotes"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = "quotes[" + std::to_string(i) + "]";
    const json& e = list[i];
    if (!e.is_object()) fail(at, "must be an object");
    for (const auto& item : e.items()) {
      const std::string& k = item.key();
      if (k != "id" && k != "seed" && k != "text" && k != "value" && k != "unit" && k != "excerpt")
        fail(at + "." + k, "unknown key (allowed: id, seed, text, value, unit, excerpt)");
    }
    auto str = [&](const char* key) {
      if (!e.contains(key) || !e[key].is_string() || e[key].get<std::string>().empty())
        fail(at + "." + key, "must be a non-empty string");
      return e[key].get<std::string>();
    };
    Quote q{str("id"), str("seed"), str("text"), std::nullopt, str("unit"), str("excerpt")};
    if (q.id.rfind(q.seed + ".", 0) != 0 || q.id.size() <= q.seed.size() + 1)
      fail(at + ".id",
           "\"" + q.id + "\" must be the seed, a point and a name (\"" + q.seed + ".name\")");
    if (std::none_of(std::begin(kUnits), std::end(kUnits),
                     [&](const char* u) { return q.unit == u; }))
      fail(at + ".unit", "\"" + q.unit +
                             "\" is unknown: ms | us | s | TFLOPS | GB/s | B | KB | MB | GB | % | "
                             "x | count | text");
    if (e.contains("value") && e["value"].is_number())
      q.value = e["value"].get<double>();
    else if (e.contains("value") && !e["value"].is_null())
      fail(at + ".value", "must be a number or null");
    if (q.unit != "text" && !q.value)
      fail(at + ".value", "a figure (unit " + q.unit + ") needs a value");
    if (out.find(q.id)) fail(at + ".id", "\"" + q.id + "\" is given twice");
    out.quotes.push_back(std::move(q));
  }
  return out;
}

Quotes load_quotes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path.string() + ": cannot open for reading");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_quotes(buf.str(), path.string());
}

const Quotes& bundled_quotes() {
  static const Quotes q = [] {
    const auto path = assets_dir() / "lessons" / "quotes.json";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return Quotes{path.string(), {}};
    return load_quotes(path);
  }();
  return q;
}

std::vector<std::string> digits_missing_from_excerpt(const Quote& q) {
  std::vector<std::string> out;
  for (const auto& run : digit_runs(q.text))
    if (q.excerpt.find(run) == std::string::npos) out.push_back(run);
  return out;
}

std::filesystem::path seed_file(const std::filesystem::path& seeds_dir, const std::string& seed) {
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(seeds_dir, ec))
    if (f.path().filename().string().rfind(seed + "_", 0) == 0) return f.path();
  return {};
}

bool contains_normalised(std::string_view text, std::string_view excerpt) {
  return normalise(text).find(normalise(excerpt)) != std::string::npos;
}

}  // namespace tilesim::scenario
