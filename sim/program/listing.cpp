// Composes kernel listings from the embedded assets and finds anchor lines in them.
#include "sim/program/listing.hpp"

#include <array>
#include <map>
#include <mutex>
#include <sstream>

#include "sim/base/enum_names.hpp"

namespace tilesim::sim {
namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in{std::string(text)};
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// The launch-order snippet each order's listing is composed with.
constexpr enum_names::Table<LaunchOrder, 4> kOrderFiles{
    {{LaunchOrder::row_major, "launch_orders/row_major.py"},
     {LaunchOrder::column_major, "launch_orders/column_major.py"},
     {LaunchOrder::grouped, "launch_orders/grouped.py"},
     {LaunchOrder::grouped_legacy, "launch_orders/grouped_legacy.py"}}};

std::string order_file(LaunchOrder o) {
  return std::string(enum_names::name_of(kOrderFiles, o));
}

Listing compose(Kernel kernel, Boundary boundary, LaunchOrder order) {
  const std::string body_name =
      std::string(to_string(kernel)) + (boundary == Boundary::mask ? "_mask.py" : "_wrap.py");
  const std::string snippet_name = order_file(order);
  Listing l;
  l.name = body_name + " + " + snippet_name;
  const auto snippet = split_lines(embedded_kernel_asset(snippet_name));
  for (const auto& line : split_lines(embedded_kernel_asset(body_name))) {
    const auto at = line.find("{launch_order}");
    if (at == std::string::npos) {
      l.lines.push_back(line);
      continue;
    }
    const std::string indent = line.substr(0, at);
    for (const auto& s : snippet) l.lines.push_back(indent + s);
  }
  return l;
}

}  // namespace

int Listing::find(std::string_view prefix, int from) const {
  for (int i = std::max(from, 1); i <= static_cast<int>(lines.size()); ++i) {
    std::string_view s = lines[i - 1];
    const auto first = s.find_first_not_of(' ');
    if (first == std::string_view::npos) continue;
    if (s.substr(first).starts_with(prefix)) return i;
  }
  return 0;
}

std::string Listing::text() const {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

const Listing& kernel_listing(Kernel kernel, Boundary boundary, LaunchOrder order) {
  static std::mutex mu;
  static std::map<std::array<int, 3>, Listing> cache;
  const std::array<int, 3> key{static_cast<int>(kernel), static_cast<int>(boundary),
                               static_cast<int>(order)};
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, compose(kernel, boundary, order)).first;
  return it->second;
}

}  // namespace tilesim::sim
