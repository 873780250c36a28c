// Launch grid view model: pid table, colour classes and the cursor's program and wave.
#include "app/core/grid_view.hpp"

#include <algorithm>

namespace tilesim::app {

std::int64_t launch_group_of(const sim::Problem& p, std::int64_t pid) {
  const auto g = sim::grid_of(p);
  switch (p.order()) {
    case sim::LaunchOrder::row_major: return pid / g.tiles_n;
    case sim::LaunchOrder::column_major: return pid / g.tiles_m;
    case sim::LaunchOrder::grouped:
    case sim::LaunchOrder::grouped_legacy: return pid / (g.group_size_m * g.tiles_n);
  }
  return 0;
}

GridView make_grid_view(const sim::Problem& p, const PlaybackCursor& cursor, GridColoring coloring,
                        std::int64_t sms) {
  GridView v;
  const auto g = sim::grid_of(p);
  v.tiles_m = g.tiles_m;
  v.tiles_n = g.tiles_n;
  v.cells.resize(static_cast<std::size_t>(g.programs()));
  v.launch_group.resize(v.cells.size());
  const auto at = cursor.at();
  const std::int64_t wave = cursor.wave_programs();
  const std::int64_t cur_wave = at.pid / wave;
  const bool last_step = at.step == cursor.steps_per_program() - 1;
  const auto mapping = sim::launch_mapping(p.order(), g);
  for (std::int64_t pid = 0; pid < g.programs(); ++pid) {
    const auto t = mapping[pid];
    const std::int64_t idx = t.pid_m * g.tiles_n + t.pid_n;
    GridCell& c = v.cells[idx];
    c.pid = pid;
    switch (coloring) {
      case GridColoring::group: c.group = launch_group_of(p, pid); break;
      case GridColoring::wave: c.group = pid / wave; break;
      case GridColoring::sm: c.group = (pid % wave) % std::max<std::int64_t>(1, sms); break;
    }
    c.done = pid < at.pid || (pid == at.pid && last_step);
    c.resident = pid / wave == cur_wave;
    c.current = pid == at.pid;
    v.launch_group[idx] = launch_group_of(p, pid);
  }
  return v;
}

}  // namespace tilesim::app
