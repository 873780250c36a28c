// Sweep view: a bar chart over GROUP_SIZE_M (or block sizes) of the DRAM bytes the engine
// predicts for the whole run (sim::run_sweep on the scenario's machine), with the L2 hit rate.
// Computed on a worker thread with progress and cancel; the window keeps drawing meanwhile.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/panels/panels.hpp"

namespace tilesim::app {

void draw_sweep(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::sweep, "Sweep: predicted DRAM traffic by setting", r)) {
    center_tabs(f);
    int axis = static_cast<int>(f.ui.sweep_axis);
    ImGui::RadioButton("GROUP_SIZE_M", &axis, 0);
    ImGui::SameLine();
    ImGui::RadioButton("block sizes", &axis, 1);
    f.ui.sweep_axis = static_cast<SweepAxis>(axis);
    help_marker(f, "sweep");
    f.cmds.push(RequestSweep{f.ui.sweep_axis});  // a no-op while this sweep runs or is done
    const sim::Machine& machine = f.model.machine;
    auto& job = f.model.jobs->sweep;
    if (job.pending()) {
      ImGui::SameLine();
      ImGui::ProgressBar(static_cast<float>(job.progress()), ImVec2(160, 0), "replaying");
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) f.cmds.push(CancelSweep{});
    }
    ImGui::TextDisabled("each bar: one full engine replay on %s (%lld SMs, %s L2)",
                        machine.name.c_str(), (long long)machine.sms,
                        format_bytes(double(machine.l2_bytes)).c_str());
    if (const auto err = job.error(); !err.empty() && !job.pending())
      text_colored(palette::l2_miss, ("Sweep refused: " + err).c_str());
    const auto bars = job.current() ? job.result() : std::nullopt;
    if (!bars || bars->empty()) {
      ImGui::TextUnformatted(job.pending() ? "computing..." : "press a setting to sweep");
      end_panel();
      return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeight();
    const float chart_h = avail.y - 2 * lh - 12;
    std::int64_t max_bytes = 1;
    for (const auto& b : *bars) max_bytes = std::max(max_bytes, b.dram_bytes);
    const float slot = avail.x / bars->size();
    const float bw = std::min(slot * 0.7f, 90.0f);
    for (std::size_t i = 0; i < bars->size(); ++i) {
      const auto& b = (*bars)[i];
      const float h = chart_h * 0.8f * float(b.dram_bytes) / float(max_bytes);
      const float x = pos.x + i * slot + (slot - bw) / 2;
      const float y1 = pos.y + chart_h;
      const Rgba col = b.is_current ? palette::highlight : palette::l2_miss;
      dl->AddRectFilled(ImVec2(x, y1 - h), ImVec2(x + bw, y1), col.packed(), 2);
      const std::string v = b.error.empty() ? format_bytes(double(b.dram_bytes)) : "n/a";
      const std::string hr = b.error.empty() ? format_percent(b.l2_hit_rate) : "";
      const ImVec2 vs = ImGui::CalcTextSize(v.c_str()), hs = ImGui::CalcTextSize(hr.c_str());
      dl->AddText(ImVec2(x + (bw - vs.x) / 2, y1 - h - 2 * lh - 4), palette::text.packed(),
                  v.c_str());
      dl->AddText(ImVec2(x + (bw - hs.x) / 2, y1 - h - lh - 2), palette::l2_hit.packed(),
                  hr.c_str());
      const ImVec2 ls = ImGui::CalcTextSize(b.label.c_str());
      dl->AddText(ImVec2(x + (bw - ls.x) / 2, y1 + 4), palette::text.packed(), b.label.c_str());
      ImGui::SetCursorScreenPos(ImVec2(x, y1 - h));
      ImGui::InvisibleButton(("##bar" + std::to_string(i)).c_str(), ImVec2(bw, std::max(1.0f, h)));
      if (ImGui::IsItemHovered()) {
        if (b.error.empty())
          ImGui::SetTooltip(
              "%s: DRAM %s (read %s), L2 hit rate %s\n%lld waves, %d programs per SM, "
              "roofline %.3f ms\nClick to open this setting.",
              b.label.c_str(), v.c_str(), format_bytes(double(b.dram_read_bytes)).c_str(),
              hr.c_str(), (long long)b.waves, b.programs_per_sm, b.predicted_ms);
        else
          ImGui::SetTooltip("%s: %s", b.label.c_str(), b.error.c_str());
        if (ImGui::IsItemClicked()) f.cmds.push(SetSpec{b.spec, ""});
      }
    }
    ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + chart_h + lh + 8));
    ImGui::TextDisabled(
        "bars: predicted DRAM bytes (read + write) of the whole run; teal: L2 hit rate; yellow: "
        "open now");
  }
  end_panel();
}

}  // namespace tilesim::app
