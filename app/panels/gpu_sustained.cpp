// The GPU panel's rungs under sustained load (see gpu_parts.hpp): a benchmark's short runs (L2
// flushed, at most a few seconds of a rung in all) leave the board below its power cap; seconds
// of back-to-back launches do not, and then the cap, not the kernel, sets the clock. Every figure
// here is measured and says where it comes from.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/core/step_figures.hpp"
#include "app/panels/gpu_parts.hpp"
#include "scenario/bench_report.hpp"
#include "scenario/sustained_runs.hpp"
#include "sim/base/format.hpp"

namespace tilesim::app {

void draw_sustained_runs(FrameContext& f, const scenario::BenchReport& bench,
                         const std::vector<const scenario::BenchRecord*>& matches) {
  const scenario::SustainedRuns* runs = scenario::bundled_sustained_runs(f.model.machine.key);
  if (!runs || runs->gpu != bench.device.name) return;
  const std::string source = runs->gpu + ", " + runs->date + ", assets/measured/power_ladder_" +
                             f.model.machine.key + ".csv";
  bool heading = false;
  for (const auto* rec : matches) {
    const auto* run = scenario::find_sustained(*runs, rec->result.variant, rec->result.problem);
    if (!run || rec->result.median_ms <= 0) continue;
    if (!heading) {
      ImGui::Spacing();
      text_colored(palette::highlight, "The same rungs under seconds of load");
      heading = true;
    }
    const scenario::Figure fig = sustained_run_figure(*run, source);
    text_words(run->variant + ":", palette::text);
    ImGui::SameLine();
    figure_text(f, fig);
    char rest[256];
    const double slower = 100.0 * (run->median_ms / rec->result.median_ms - 1.0);
    std::snprintf(rest, sizeof rest,
                  "against %s in the short run above (%+.1f %%), at %.0f MHz and %.0f W",
                  sim::format_seconds(rec->result.median_ms * 1e-3).c_str(), slower, run->sm_mhz,
                  run->power_w);
    ImGui::SameLine();
    text_words(rest, palette::text_dim);
  }
  if (heading) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "Measured on %s (%s). Held for seconds, a matmul draws the board's power cap (700 W on "
        "these chips) and the clock falls until it fits: the kernel that draws less power per "
        "FLOP keeps the higher clock. The short runs above, like do_bench's, stop before that "
        "(they are the bundled ladder's, from another device call on the same kind of GPU).",
        runs->gpu.c_str(), runs->date.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace tilesim::app
