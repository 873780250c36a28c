// Sweep view: a bar chart over GROUP_SIZE_M (or block sizes) of the DRAM bytes the engine
// predicts for the whole run (sim::run_sweep on the scenario's machine), with the L2 hit rate,
// or of the timed engine's throughput with measured points from a bench file (seed 001's chart).
// Computed on a worker thread with progress and cancel; the window keeps drawing meanwhile.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "app/panels/panels.hpp"

namespace tilesim::app {
namespace {

// Below a chart: why every bar is the same height when the inputs fit in L2 (seed 004).
void equal_bars_note(FrameContext& f, const std::vector<SweepBar>& bars) {
  if (bars.size() < 2) return;
  const auto [lo, hi] =
      std::minmax_element(bars.begin(), bars.end(),
                          [](const auto& a, const auto& b) { return a.dram_bytes < b.dram_bytes; });
  if (double(hi->dram_bytes) > 1.01 * double(lo->dram_bytes)) return;
  if (!inputs_fit_in_l2(f.model.problem.spec(), f.model.machine)) return;
  ImGui::PushTextWrapPos(0);
  text_colored(
      palette::highlight,
      ("Equal bars: A and B together fit in the " +
       format_bytes(double(sim::effective_l2_bytes(f.model.machine))) +
       " of L2 that shared data sees (the L2 / its partitions), so every input byte comes from "
       "DRAM once whatever the setting. Grouping "
       "matters when the inputs are larger than the L2 (try 8192^3).")
          .c_str());
  ImGui::PopTextWrapPos();
}

// Centred on a bar of width bw in a slot of width `room`, shrunk (to 70 % at most) to fit it.
void bar_label(ImDrawList* dl, float x, float bw, float y, const std::string& s, Rgba c,
               float room = 0) {
  ImFont* font = ImGui::GetFont();
  const float full = ImGui::CalcTextSize(s.c_str()).x;
  const float size =
      ImGui::GetFontSize() * (room > 0 && full > room - 4 ? std::max(0.7f, (room - 4) / full) : 1);
  const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0, s.c_str());
  dl->AddText(font, size, ImVec2(x + (bw - ts.x) / 2, y), c.packed(), s.c_str());
}

// Bars of predicted DRAM bytes with the L2 hit rate above each.
void dram_chart(FrameContext& f, const std::vector<SweepBar>& bars) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float lh = ImGui::GetTextLineHeight();
  const float chart_h = avail.y - 4 * lh - 12;
  std::int64_t max_bytes = 1;
  for (const auto& b : bars) max_bytes = std::max(max_bytes, b.dram_bytes);
  const float slot = avail.x / bars.size();
  const float bw = std::min(slot * 0.7f, 90.0f);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const float h = chart_h * 0.8f * float(b.dram_bytes) / float(max_bytes);
    const float x = pos.x + i * slot + (slot - bw) / 2;
    const float y1 = pos.y + chart_h;
    const Rgba col = b.is_current ? palette::highlight : palette::l2_miss;
    dl->AddRectFilled(ImVec2(x, y1 - h), ImVec2(x + bw, y1), col.packed(), 2);
    const std::string v = b.error.empty() ? format_bytes(double(b.dram_bytes)) : "n/a";
    const std::string hr = b.error.empty() ? format_percent(b.l2_hit_rate) : "";
    bar_label(dl, x, bw, y1 - h - 2 * lh - 4, v, palette::text);
    bar_label(dl, x, bw, y1 - h - lh - 2, hr, palette::l2_hit);
    bar_label(dl, x, bw, y1 + 4, b.label, palette::text, slot);
    ImGui::SetCursorScreenPos(ImVec2(x, y1 - h));
    ImGui::InvisibleButton(("##bar" + std::to_string(i)).c_str(), ImVec2(bw, std::max(1.0f, h)));
    if (ImGui::IsItemHovered()) {
      if (b.error.empty())
        ImGui::SetTooltip(
            "%s: DRAM %s (read %s), L2 hit rate %s\n%lld waves, %d programs per SM, "
            "timed engine %.3f ms\nClick to open this setting.",
            b.label.c_str(), v.c_str(), format_bytes(double(b.dram_read_bytes)).c_str(), hr.c_str(),
            (long long)b.waves, b.programs_per_sm, b.predicted_ms);
      else
        ImGui::SetTooltip("%s: %s", b.label.c_str(), b.error.c_str());
      if (ImGui::IsItemClicked()) f.cmds.push(SetSpec{b.spec, ""});
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + chart_h + lh + 8));
  ImGui::TextDisabled(
      "bars: predicted DRAM bytes (read + write) of the whole run; teal: L2 hit rate; yellow: "
      "open now");
  equal_bars_note(f, bars);
}

// Where a bar's measured point comes from: the bundled sweep file of the open preset
// (tilesim-bench --sweep, assets/measured/bench_sweep_<key>.json), else a bench file the GPU tab
// loaded.
struct Measured {
  double rate = 0;
  const scenario::BenchReport* report = nullptr;
  std::string variant;
};
Measured measured_point(FrameContext& f, const SweepBar& b) {
  const scenario::BenchReport* loaded = f.ui.bench_report ? &*f.ui.bench_report : nullptr;
  for (const scenario::BenchReport* r :
       {scenario::bundled_sweep_report(f.model.machine.key), loaded}) {
    if (!r) continue;
    if (const double v = measured_rate(b, *r); v > 0) return {v, r, measured_variant(b, *r)};
  }
  return {};
}

// Bars of the timed engine's throughput: the setting as a Triton program (blue) and, where a CUDA
// rung is templated on it, as that rung compiles it (orange); a green dot per setting a bench file
// measured.
void rate_chart(FrameContext& f, const std::vector<SweepBar>& bars) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float lh = ImGui::GetTextLineHeight();
  // Under the chart: each setting's name on two rows, its measured figure, then three legend
  // lines.
  const float chart_h = avail.y - 7 * lh - 24;
  std::vector<Measured> measured(bars.size());
  double top = 1e-9;
  std::string unit = "TFLOP/s";
  bool any_rung = false;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    measured[i] = measured_point(f, bars[i]);
    top = std::max({top, bars[i].predicted_rate, bars[i].rung_predicted_rate, measured[i].rate});
    if (!bars[i].rate_unit.empty()) unit = bars[i].rate_unit;
    any_rung = any_rung || bars[i].rung_predicted_rate > 0;
  }
  const float slot = avail.x / bars.size();
  const float group_w = std::min(slot * 0.8f, any_rung ? 130.0f : 90.0f);
  const float bw = any_rung ? group_w / 2 : group_w;  // one bar, or the pair side by side
  const float y1 = pos.y + chart_h;
  const auto height = [&](double v) { return chart_h * 0.78f * float(v / top); };
  char buf[64];
  const auto value_bar = [&](float x, double v, Rgba col, bool valid) {
    const float h = height(v);
    dl->AddRectFilled(ImVec2(x, y1 - h), ImVec2(x + bw, y1), col.packed(), 2);
    std::snprintf(buf, sizeof buf, "%.0f", v);
    bar_label(dl, x, bw, y1 - h - lh - 2, valid ? buf : "n/a", palette::text, bw + 6);
    return h;
  };
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const float x = pos.x + i * slot + (slot - group_w) / 2;
    float h = value_bar(x, b.predicted_rate, palette::a, b.error.empty());
    float xr = x;  // the bar the measured dot sits on: the rung's where there is one
    if (b.rung_predicted_rate > 0) {
      xr = x + bw;
      h = std::max(h, value_bar(xr, b.rung_predicted_rate, palette::b, true));
    }
    if (b.is_current)
      dl->AddRect(ImVec2(x - 3, y1 - h - lh - 6), ImVec2(x + group_w + 3, y1 + 2),
                  palette::highlight.packed(), 3, 0, 2.5f);
    // "128x128x32 w8 s3": the tile on one row, what differs from seed 001's config under it.
    const std::size_t cut = b.label.find(' ');
    const Rgba name_col = b.is_current ? palette::highlight : palette::text;
    bar_label(dl, x, group_w, y1 + 4, b.label.substr(0, cut), name_col, slot);
    if (cut != std::string::npos)
      bar_label(dl, x, group_w, y1 + 4 + lh, b.label.substr(cut + 1), name_col, slot);
    const double mv = measured[i].rate;
    if (mv > 0) {
      const float my = y1 - height(mv);
      const float r = std::max(5.0f, lh * 0.35f);
      // At the right edge of its bar, clear of the bar's own figure above it.
      const float cx = xr + bw + r * 0.4f;
      dl->AddCircleFilled(ImVec2(cx, my), r, palette::c.packed());
      dl->AddCircle(ImVec2(cx, my), r, palette::background.packed(), 0, 1.5f);
      std::snprintf(buf, sizeof buf, "%.0f", mv);
      bar_label(dl, x, group_w, y1 + 6 + 2 * lh, buf, palette::c, slot);
    }
    ImGui::SetCursorScreenPos(ImVec2(x, y1 - std::max(h, 1.0f)));
    ImGui::InvisibleButton(("##rate" + std::to_string(i)).c_str(),
                           ImVec2(group_w, std::max(1.0f, h)));
    if (ImGui::IsItemHovered()) {
      std::string tip = b.label + ": ";
      if (!b.error.empty()) {
        tip += b.error;
      } else {
        std::snprintf(buf, sizeof buf, "%.1f %s (%.3f ms)", b.predicted_rate, unit.c_str(),
                      b.predicted_ms);
        tip += "predicted as a Triton program " + std::string(buf);
      }
      if (b.rung_predicted_rate > 0) {
        std::snprintf(buf, sizeof buf, "%.1f %s (%.3f ms)", b.rung_predicted_rate, unit.c_str(),
                      b.rung_predicted_ms);
        tip += "\npredicted as " + b.rung + " " + buf;
      }
      if (mv > 0) {
        std::snprintf(buf, sizeof buf, "%.1f %s", mv, unit.c_str());
        tip += "\n" + measured_legend(*measured[i].report) + ": " + measured[i].variant + " " + buf;
      }
      ImGui::SetTooltip("%s\nClick to open this setting.", tip.c_str());
      if (ImGui::IsItemClicked()) f.cmds.push(SetSpec{b.spec, ""});
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(pos.x, y1 + 3 * lh + 12));
  const scenario::BenchReport* source = nullptr;
  std::string variants;
  for (const auto& m : measured)
    if (m.rate > 0) {
      source = source ? source : m.report;
      if (variants.find(m.variant) == std::string::npos)
        variants += (variants.empty() ? "" : ", ") + m.variant;
    }
  const std::string preset = "predicted (" + f.model.machine.name + " preset)";
  text_colored(palette::a, ("blue bars: " + preset + ", " + unit + " of a Triton program").c_str());
  if (any_rung)
    text_colored(palette::b,
                 ("orange bars: " + preset + ", the CUDA rung matmul_mma_sync_tiles").c_str());
  if (source)
    text_colored(palette::c,
                 ("green dots and figures: " + measured_legend(*source) + ", " + variants).c_str());
  else
    ImGui::TextDisabled(
        "green dots: measured, none for this problem on this preset (tilesim-bench --sweep, or "
        "load a tilesim-bench --json file in the GPU tab)");
}

}  // namespace

void draw_sweep(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::sweep, "Sweep: predicted traffic and speed by setting", r)) {
    center_tabs(f);
    int axis = static_cast<int>(f.ui.sweep_axis);
    ImGui::RadioButton("GROUP_SIZE_M", &axis, 0);
    ImGui::SameLine();
    ImGui::RadioButton("block sizes", &axis, 1);
    if (static_cast<SweepAxis>(axis) != f.ui.sweep_axis)
      f.ui.sweep_rate = axis == static_cast<int>(SweepAxis::block_size);  // seed 001's chart
    f.ui.sweep_axis = static_cast<SweepAxis>(axis);
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    int plot = f.ui.sweep_rate ? 1 : 0;
    ImGui::RadioButton("DRAM bytes", &plot, 0);
    ImGui::SameLine();
    ImGui::RadioButton("throughput", &plot, 1);
    f.ui.sweep_rate = plot == 1;
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
    if (f.ui.sweep_rate)
      rate_chart(f, *bars);
    else
      dram_chart(f, *bars);
  }
  end_panel();
}

}  // namespace tilesim::app
