// Sweep view: a bar chart over GROUP_SIZE_M (or block sizes) of the distinct input bytes the
// first wave touches — the DRAM traffic a wave needs when its footprint fits in L2. Computed on
// a worker thread with progress and cancel; the window keeps drawing meanwhile.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/panels/panels.hpp"

namespace tilesim::app {

void draw_sweep(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::sweep, "Sweep: first-wave footprint by setting", r)) {
    center_tabs(f);
    int axis = static_cast<int>(f.ui.sweep_axis);
    ImGui::RadioButton("GROUP_SIZE_M", &axis, 0);
    ImGui::SameLine();
    ImGui::RadioButton("block sizes", &axis, 1);
    f.ui.sweep_axis = static_cast<SweepAxis>(axis);
    help_marker(f, "sweep");
    const auto spec = f.model.problem.spec();
    const auto wave = f.model.wave_programs();
    const auto key = sweep_key(spec, f.ui.sweep_axis, wave);
    const auto sweep_axis = f.ui.sweep_axis;
    f.ui.sweep_job.request(key, [spec, sweep_axis, wave](std::stop_token st, std::atomic<double>& pr) {
      return run_sweep(spec, sweep_axis, wave, st, pr);
    });
    if (f.ui.sweep_job.pending()) {
      ImGui::SameLine();
      ImGui::ProgressBar(static_cast<float>(f.ui.sweep_job.progress()), ImVec2(160, 0));
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) f.ui.sweep_job.cancel();
    }
    ImGui::TextDisabled("first wave = %lld programs (%lld SMs x %lld per SM on %s)", (long long)wave,
                        (long long)f.model.sms(), (long long)f.model.programs_per_sm(),
                        f.model.scenario.machine.c_str());
    const auto bars = f.ui.sweep_job.result();
    if (!bars || bars->empty()) {
      ImGui::TextUnformatted(f.ui.sweep_job.pending() ? "computing..." : "press a setting to sweep");
      end_panel();
      return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeight();
    const float chart_h = avail.y - 2 * lh - 12;
    std::int64_t max_bytes = 1;
    for (const auto& b : *bars) max_bytes = std::max(max_bytes, b.bytes);
    const float slot = avail.x / bars->size();
    const float bw = std::min(slot * 0.7f, 90.0f);
    for (std::size_t i = 0; i < bars->size(); ++i) {
      const auto& b = (*bars)[i];
      const float h = chart_h * 0.85f * float(b.bytes) / float(max_bytes);
      const float x = pos.x + i * slot + (slot - bw) / 2;
      const float y1 = pos.y + chart_h;
      const Rgba col = b.is_current ? palette::highlight : palette::a;
      dl->AddRectFilled(ImVec2(x, y1 - h), ImVec2(x + bw, y1), col.packed(), 2);
      const std::string v = format_bytes(double(b.bytes));
      const ImVec2 vs = ImGui::CalcTextSize(v.c_str());
      dl->AddText(ImVec2(x + (bw - vs.x) / 2, y1 - h - lh - 2), palette::text.packed(), v.c_str());
      const ImVec2 ls = ImGui::CalcTextSize(b.label.c_str());
      dl->AddText(ImVec2(x + (bw - ls.x) / 2, y1 + 4), palette::text.packed(), b.label.c_str());
      ImGui::SetCursorScreenPos(ImVec2(x, y1 - h));
      ImGui::InvisibleButton(("##bar" + std::to_string(i)).c_str(), ImVec2(bw, std::max(1.0f, h)));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s: the first %lld programs touch %s distinct input tiles (%s).\nClick to open this setting.",
                          b.label.c_str(), (long long)b.programs, format_count(b.tiles).c_str(), v.c_str());
        if (ImGui::IsItemClicked()) f.cmds.push(SetSpec{b.spec, ""});
      }
    }
    ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + chart_h + lh + 8));
    ImGui::TextDisabled("bars: distinct input bytes of the first wave (what DRAM must deliver if the wave's tiles fit in L2)");
  }
  end_panel();
}

}  // namespace tilesim::app
