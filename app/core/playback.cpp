// Cursor of a frame (see playback.hpp).
#include "app/core/playback.hpp"

#include "app/core/engine_session.hpp"

namespace tilesim::app {

CursorPos cursor_of(const EngineFrame* f) {
  if (!has_current_event(f)) return {};
  const auto& info = f->snapshot.current->info;
  return {info.pid, info.step};
}

bool has_current_event(const EngineFrame* f) {
  return f && !f->counters_only && f->snapshot.current.has_value();
}

}  // namespace tilesim::app
