// The one way sim/ names the values of an enum: a table of (value, name) pairs read both ways,
// in place of a switch per enum, so that printing, parsing and the "allowed: a | b" list of an
// error message come from the same rows.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tilesim::sim::enum_names {

template <class E, std::size_t N>
using Table = std::array<std::pair<E, std::string_view>, N>;

// "?" for a value the table lacks (a cast from an out-of-range integer).
template <class E, std::size_t N>
constexpr std::string_view name_of(const Table<E, N>& t, E v) {
  for (const auto& [e, s] : t)
    if (e == v) return s;
  return "?";
}

template <class E, std::size_t N>
constexpr std::optional<E> parse_in(const Table<E, N>& t, std::string_view s) {
  for (const auto& [e, name] : t)
    if (name == s) return e;
  return std::nullopt;
}

// "copy | transpose | matmul"
template <class E, std::size_t N>
std::string join_names(const Table<E, N>& t) {
  std::string out;
  for (const auto& [e, name] : t) {
    if (!out.empty()) out += " | ";
    out += name;
  }
  return out;
}

}  // namespace tilesim::sim::enum_names
