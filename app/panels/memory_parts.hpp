// Parts of the memory panel, each drawn in a rectangle: the L2 hit rate over time, the L2
// residency and reuse of the input tiles now, and the measured-beside-predicted line (issue 6).
#pragma once

#include "app/panels/panels.hpp"

namespace tilesim::app {

void hit_rate_plot(FrameContext& f, const EngineFrame& fr, const Rect& r);
void residency_view(FrameContext& f, const EngineFrame& fr, const Rect& r);
// "Measured on NVIDIA H200 (2026-11-22): DRAM ..., L2 hit rate ..." when a record matches.
void measured_line(FrameContext& f);

}  // namespace tilesim::app
