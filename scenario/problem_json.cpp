// ProblemSpec <-> JSON, one field list for every file format (see problem_json.hpp).
#include "scenario/problem_json.hpp"

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tilesim::scenario {
namespace {

using nlohmann::json;

// Measured files' spellings of the same fields (Dialect::legacy only).
constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
    {"group_m", "group_size_m"},
};

std::string name_of(std::string_view key) {
  for (const auto& [alias, name] : kAliases)
    if (alias == key) return std::string(name);
  return std::string(key);
}

std::int64_t int_value(const json& v, const std::string& key, Dialect d) {
  if (d == Dialect::legacy && v.is_string()) {
    const auto s = v.get<std::string>();
    std::size_t used = 0;
    try {
      const long long x = std::stoll(s, &used);
      if (used == s.size()) return x;
    } catch (const std::exception&) {
    }
    throw sim::InvalidField(key, key + " must be an integer, got string " + v.dump());
  }
  if (!v.is_number_integer())
    throw sim::InvalidField(
        key, key + " must be an integer, got " + std::string(v.type_name()) + " " + v.dump());
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    throw sim::InvalidField(key, key + " = " + v.dump() + " is far out of range");
  return v.get<std::int64_t>();
}

template <class T>
void read_value(T& out, const json& v, const std::string& key, Dialect d) {
  if constexpr (std::is_enum_v<T>) {
    out = read_enum<T>(v, key);
  } else if constexpr (std::is_same_v<T, int>) {
    out = read_int(v, key, d);
  } else {
    static_assert(std::is_same_v<T, std::int64_t>, "a ProblemSpec field of a new type");
    out = int_value(v, key, d);
  }
}

}  // namespace

int read_int(const json& v, const std::string& key, Dialect d) {
  const auto x = int_value(v, key, d);
  if (x < INT32_MIN || x > INT32_MAX)
    throw sim::InvalidField(key, key + " = " + std::to_string(x) + " is far out of range");
  return static_cast<int>(x);
}

bool read_problem_field(sim::ProblemSpec& p, const std::string& key, const json& v, Dialect d) {
  const std::string name = d == Dialect::legacy ? name_of(key) : key;
  bool found = false;
  for_each_problem_field(p, [&](std::string_view field, auto& member) {
    if (found || field != name) return;
    read_value(member, v, name, d);
    found = true;
  });
  return found;
}

sim::ProblemSpec problem_from_json(const json& j, Dialect d) {
  if (!j.is_object()) throw sim::InvalidField("problem", "problem must be a JSON object");
  sim::ProblemSpec p;
  for (const auto& [key, v] : j.items())
    if (!read_problem_field(p, key, v, d))
      throw sim::InvalidField(key, "unknown field \"" + key + "\" in a problem");
  return p;
}

json problem_to_json(const sim::ProblemSpec& p) {
  json j = json::object();
  for_each_problem_field(p, [&](std::string_view field, const auto& member) {
    using T = std::decay_t<decltype(member)>;
    if constexpr (std::is_enum_v<T>)
      j[std::string(field)] = sim::to_string(member);
    else
      j[std::string(field)] = member;
  });
  return j;
}

}  // namespace tilesim::scenario
