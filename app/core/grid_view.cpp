// Launch grid view model: pid table, colour classes and the cursor's program and wave.
#include "app/core/grid_view.hpp"

#include <algorithm>

#include "sim/program/program_trace.hpp"

namespace tilesim::app {

GridView make_grid_view(const sim::Problem& p, const EngineFrame* frame, GridColoring coloring,
                        std::int64_t sms, std::int64_t slots) {
  GridView v;
  const auto g = sim::grid_of(p);
  if (g.programs() > kMaxGridPrograms) return v;  // tiles 0 x 0: nothing to draw or look up
  v.tiles_m = g.tiles_m;
  v.tiles_n = g.tiles_n;
  v.cells.resize(static_cast<std::size_t>(g.programs()));
  v.launch_group.resize(v.cells.size());
  slots = std::max<std::int64_t>(1, frame ? frame->slots : slots);
  // Resident programs from the snapshot; a program is done once its store event has executed.
  std::vector<char> resident(v.cells.size(), 0);
  std::int64_t current = -1;
  const std::int64_t steps = sim::steps_per_program(p);
  bool all_done = false;
  if (frame) {
    const auto& s = frame->snapshot;
    for (const auto& r : s.residents)
      if (r.pid >= 0 && r.pid < g.programs()) resident[static_cast<std::size_t>(r.pid)] = 1;
    all_done = frame->counters_only || frame->position >= frame->events;
    // After the last event nothing runs "now": the last program shows as stored.
    if (s.current && !all_done) current = s.current->info.pid;
  }
  const auto mapping = sim::launch_mapping(p.order(), g);
  for (std::int64_t pid = 0; pid < g.programs(); ++pid) {
    const auto t = mapping[pid];
    const std::int64_t idx = t.pid_m * g.tiles_n + t.pid_n;
    GridCell& c = v.cells[idx];
    c.pid = pid;
    switch (coloring) {
      case GridColoring::group:
        c.group = sim::launch_group_of(p, pid);
        break;
      case GridColoring::wave:
        c.group = pid / slots;
        break;
      case GridColoring::sm:
        c.group = (pid % slots) % std::max<std::int64_t>(1, sms);
        break;
    }
    c.resident = resident[static_cast<std::size_t>(pid)] != 0;
    if (frame && frame->order)
      c.done = all_done || frame->order->event_of(pid, steps - 1) < frame->position;
    else
      c.done = all_done;
    c.current = pid == current;
    v.launch_group[idx] = sim::launch_group_of(p, pid);
  }
  return v;
}

}  // namespace tilesim::app
