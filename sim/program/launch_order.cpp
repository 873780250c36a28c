// The four launch orders, written exactly as the Triton listings in assets/kernels/launch_orders/.
#include "sim/program/launch_order.hpp"

#include <algorithm>

namespace tilesim::sim {

GridShape grid_of(const Problem& p) {
  return {p.tiles_m(), p.tiles_n(), p.group_size_m()};
}

TileCoord tile_of(LaunchOrder order, const GridShape& g, std::int64_t pid) {
  switch (order) {
    case LaunchOrder::row_major:
      return {pid / g.tiles_n, pid % g.tiles_n};
    case LaunchOrder::column_major:
      return {pid % g.tiles_m, pid / g.tiles_m};
    case LaunchOrder::grouped:
    case LaunchOrder::grouped_legacy: {
      const std::int64_t num_pid_in_group = g.group_size_m * g.tiles_n;
      const std::int64_t group_id = pid / num_pid_in_group;
      const std::int64_t first_pid_m = group_id * g.group_size_m;
      const std::int64_t group_size_m = std::min(g.tiles_m - first_pid_m, g.group_size_m);
      const std::int64_t local = pid % num_pid_in_group;
      // Today's formula takes the row within the group from the pid's position in its group;
      // the legacy one from the pid itself. Both cycle through the group's rows, so both are
      // bijections, but when num_pid_in_group is not a multiple of the last group's height the
      // legacy formula starts that group on another row.
      const std::int64_t row =
          order == LaunchOrder::grouped ? local % group_size_m : pid % group_size_m;
      return {first_pid_m + row, local / group_size_m};
    }
  }
  return {};
}

std::int64_t launch_group_of(LaunchOrder order, const GridShape& g, std::int64_t pid) {
  switch (order) {
    case LaunchOrder::row_major:
      return pid / g.tiles_n;
    case LaunchOrder::column_major:
      return pid / g.tiles_m;
    case LaunchOrder::grouped:
    case LaunchOrder::grouped_legacy:
      return pid / (g.group_size_m * g.tiles_n);
  }
  return 0;
}

std::vector<TileCoord> launch_mapping(LaunchOrder order, const GridShape& g) {
  std::vector<TileCoord> out(static_cast<std::size_t>(g.programs()));
  for (std::int64_t pid = 0; pid < g.programs(); ++pid) out[pid] = tile_of(order, g, pid);
  return out;
}

std::vector<std::int64_t> pid_grid(LaunchOrder order, const GridShape& g) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(g.programs()), -1);
  for (std::int64_t pid = 0; pid < g.programs(); ++pid) {
    const auto t = tile_of(order, g, pid);
    if (t.pid_m >= 0 && t.pid_m < g.tiles_m && t.pid_n >= 0 && t.pid_n < g.tiles_n)
      out[t.pid_m * g.tiles_n + t.pid_n] = pid;
  }
  return out;
}

Coverage check_coverage(const GridShape& g, std::span<const TileCoord> mapping) {
  Coverage c;
  std::vector<int> hits(static_cast<std::size_t>(g.programs()), 0);
  for (const auto& t : mapping) {
    if (t.pid_m < 0 || t.pid_m >= g.tiles_m || t.pid_n < 0 || t.pid_n >= g.tiles_n) {
      c.out_of_range.push_back(t);
      continue;
    }
    ++hits[t.pid_m * g.tiles_n + t.pid_n];
  }
  for (std::int64_t i = 0; i < g.programs(); ++i) {
    const TileCoord t{i / g.tiles_n, i % g.tiles_n};
    if (hits[i] == 0) c.misses.push_back(t);
    if (hits[i] > 1) c.duplicates.push_back(t);
  }
  c.bijective = c.misses.empty() && c.duplicates.empty() && c.out_of_range.empty() &&
                static_cast<std::int64_t>(mapping.size()) == g.programs();
  return c;
}

std::vector<std::string> explain_tile_of(LaunchOrder order, const GridShape& g, std::int64_t pid) {
  const auto s = [](std::int64_t v) { return std::to_string(v); };
  std::vector<std::string> out;
  out.push_back("pid = " + s(pid) + ", num_pid_m = " + s(g.tiles_m) +
                ", num_pid_n = " + s(g.tiles_n));
  switch (order) {
    case LaunchOrder::row_major:
      out.push_back("pid_m = pid // num_pid_n = " + s(pid) + " // " + s(g.tiles_n) + " = " +
                    s(pid / g.tiles_n));
      out.push_back("pid_n = pid % num_pid_n = " + s(pid) + " % " + s(g.tiles_n) + " = " +
                    s(pid % g.tiles_n));
      break;
    case LaunchOrder::column_major:
      out.push_back("pid_m = pid % num_pid_m = " + s(pid) + " % " + s(g.tiles_m) + " = " +
                    s(pid % g.tiles_m));
      out.push_back("pid_n = pid // num_pid_m = " + s(pid) + " // " + s(g.tiles_m) + " = " +
                    s(pid / g.tiles_m));
      break;
    case LaunchOrder::grouped:
    case LaunchOrder::grouped_legacy: {
      const std::int64_t G = g.group_size_m;
      const std::int64_t npig = G * g.tiles_n;
      const std::int64_t gid = pid / npig;
      const std::int64_t first = gid * G;
      const std::int64_t gsm = std::min(g.tiles_m - first, G);
      const std::int64_t local = pid % npig;
      out.push_back("num_pid_in_group = GROUP_SIZE_M * num_pid_n = " + s(G) + " * " + s(g.tiles_n) +
                    " = " + s(npig));
      out.push_back("group_id = pid // num_pid_in_group = " + s(pid) + " // " + s(npig) + " = " +
                    s(gid));
      out.push_back("first_pid_m = group_id * GROUP_SIZE_M = " + s(gid) + " * " + s(G) + " = " +
                    s(first));
      out.push_back("group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M) = min(" +
                    s(g.tiles_m) + " - " + s(first) + ", " + s(G) + ") = " + s(gsm));
      if (order == LaunchOrder::grouped)
        out.push_back("pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m = " +
                      s(first) + " + (" + s(pid) + " % " + s(npig) + ") % " + s(gsm) + " = " +
                      s(first) + " + " + s(local % gsm) + " = " + s(first + local % gsm));
      else
        out.push_back("pid_m = first_pid_m + pid % group_size_m = " + s(first) + " + " + s(pid) +
                      " % " + s(gsm) + " = " + s(first) + " + " + s(pid % gsm) + " = " +
                      s(first + pid % gsm));
      out.push_back("pid_n = (pid % num_pid_in_group) // group_size_m = (" + s(pid) + " % " +
                    s(npig) + ") // " + s(gsm) + " = " + s(local) + " // " + s(gsm) + " = " +
                    s(local / gsm));
      break;
    }
  }
  return out;
}

}  // namespace tilesim::sim
