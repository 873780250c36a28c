// SM timeline (a Gantt strip, as Nsight Systems draws one): one row per SM, each program a bar
// over simulated time from its launch to its last store, the current time as a cursor. Teaches:
// programs of one wave start together and drift apart; a program that waits on DRAM is longer;
// the last wave leaves SMs idle (the tail). Colours: by wave (pid / slots), or by what the
// program waited on.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/panels/panels.hpp"

namespace tilesim::app {
namespace {

// One colour per cause the engine attributes a program's time to (sim::kTimeCauseNames):
// memory causes warm (DRAM red, L2 teal, fill path purple), the SM's pipes cool or green.
Rgba cause_color(sim::TimeCause c) {
  switch (c) {
    case sim::TimeCause::launch:
      return palette::mask_off;
    case sim::TimeCause::latency:
      return palette::a;
    case sim::TimeCause::dram:
      return palette::l2_miss;
    case sim::TimeCause::l2:
      return palette::l2_hit;
    case sim::TimeCause::sm_load:
      return {150, 110, 210};
    case sim::TimeCause::smem:
      return palette::b;
    case sim::TimeCause::bank_conflict:
      return {217, 70, 239};
    case sim::TimeCause::math:
      return palette::c;
    case sim::TimeCause::issue:
      return {125, 211, 252};
    case sim::TimeCause::tail:
      return {90, 95, 110};
  }
  return palette::mask_off;
}

// A round step of about w / 6 picoseconds for the time axis: 1, 2 or 5 x 10^n.
double tick_step(double span_ps, float width_px, float label_px) {
  const double want = span_ps * std::max(1.0f, label_px * 1.6f) / std::max(1.0f, width_px);
  const double p10 = std::pow(10.0, std::floor(std::log10(std::max(want, 1.0))));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (p10 * m >= want) return p10 * m;
  return p10 * 10;
}

void legend(FrameContext& f) {
  ImGui::TextDisabled("colour:");
  ImGui::SameLine();
  int mode = f.ui.sms_by_wait ? 1 : 0;
  ImGui::RadioButton("wave (pid / slots)", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("what it waited on", &mode, 1);
  f.ui.sms_by_wait = mode == 1;
  if (!f.ui.sms_by_wait) return;
  // Every cause a program's time can go to, from the one name table; wrapped to the panel.
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  for (const auto& [cause, name] : sim::kTimeCauseNames) {
    if (!sim::is_program_cause(cause)) continue;
    const float s = ImGui::GetTextLineHeight();
    const float w = s + 4 + ImGui::CalcTextSize(name.data(), name.data() + name.size()).x;
    ImGui::SameLine(0, 12);
    if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + s, p.y + s),
                                              cause_color(cause).packed(), 2);
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(name.data(), name.data() + name.size());
  }
}

}  // namespace

void draw_sms(FrameContext& f, const Rect& r) {
  if (!begin_panel(f, PanelId::sms, "SM timeline", r)) return end_panel();
  center_tabs(f);
  help_marker(f, "sms");
  if (!engine_status_line(f) || !f.frame) return end_panel();
  const EngineFrame& fr = *f.frame;
  if (!fr.order || !fr.order->timed() || fr.order->programs().empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "The SM timeline needs simulated time: choose the timed order in Controls (round "
        "orders have no time).");
    ImGui::PopTextWrapPos();
    return end_panel();
  }
  const sim::EventOrder& order = *fr.order;
  const auto& programs = order.programs();
  const int sms = f.model.machine.sms;
  const int pps = static_cast<int>(std::max<std::int64_t>(1, fr.slots / sms));
  const double kernel = static_cast<double>(std::max<std::int64_t>(1, order.kernel_ps()));
  const double now = static_cast<double>(fr.snapshot.time_ps);
  ImGui::Text("t = %s of %s", format_seconds(now * 1e-12).c_str(),
              format_seconds(kernel * 1e-12).c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("| %d SMs x %d programs, %lld programs", sms, pps,
                      (long long)programs.size());
  legend(f);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float lh = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label_w = ImGui::CalcTextSize("SM 000").x + 6;
  const float x0 = origin.x + label_w, x1 = origin.x + avail.x - 4;
  const float y0 = origin.y, y1 = origin.y + std::max(avail.y - lh - 8, 4 * lh);
  const float w = std::max(1.0f, x1 - x0), row = (y1 - y0) / static_cast<float>(sms);
  const float sub = row / static_cast<float>(pps);  // one sub-row per program place on an SM
  const float gap = row >= 4 ? 1.0f : 0.0f;
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), palette::matrix_bg.packed());
  const auto x_of = [&](double ps) { return x0 + static_cast<float>(ps / kernel) * w; };

  // Bars, skipping those that would land on the pixel already drawn on their sub-row (a 132-SM
  // 8192^3 grid has thousands of programs; only the visible ones cost a rectangle).
  const std::int64_t cursor_pid = f.at.pid;
  std::vector<float> last_x(static_cast<std::size_t>(sms * pps), -1.0f);
  for (const sim::ProgramSpan& s : programs) {
    const int place = s.slot / sms;
    const float top = y0 + static_cast<float>(s.sm) * row + static_cast<float>(place) * sub;
    const float a = x_of(static_cast<double>(s.start_ps));
    const float b = std::max(a + 1.0f, x_of(static_cast<double>(s.end_ps)));
    float& last = last_x[static_cast<std::size_t>(s.sm * pps + place)];
    if (b <= last + 0.5f && s.pid != cursor_pid) continue;
    last = b;
    const Rgba c = f.ui.sms_by_wait ? cause_color(order.waited_on(s.pid))
                                    : class_color(s.pid / std::max<std::int64_t>(1, fr.slots));
    const bool future = static_cast<double>(s.start_ps) > now;
    dl->AddRectFilled(ImVec2(a, top), ImVec2(b - (b - a > 3 ? 1 : 0), top + sub - gap),
                      c.with_alpha(future ? 90 : 255).packed());
  }
  // The program at the cursor, outlined.
  if (cursor_pid >= 0 && cursor_pid < static_cast<std::int64_t>(programs.size())) {
    const sim::ProgramSpan& s = programs[static_cast<std::size_t>(cursor_pid)];
    const float top = y0 + static_cast<float>(s.sm) * row + static_cast<float>(s.slot / sms) * sub;
    dl->AddRect(ImVec2(x_of(static_cast<double>(s.start_ps)) - 1, top - 1),
                ImVec2(x_of(static_cast<double>(s.end_ps)) + 1, top + std::max(sub, 3.0f) + 1),
                palette::highlight.packed(), 0, 0, 2);
  }
  // SM labels: as many as fit without overlapping.
  const int every = std::max(1, static_cast<int>(std::ceil(lh * 1.2f / std::max(row, 0.01f))));
  const int label_step = every <= 1 ? 1 : every <= 2 ? 2 : every <= 4 ? 4 : every <= 8 ? 8 : 16;
  for (int sm = 0; sm < sms; sm += label_step) {
    const std::string t = "SM " + std::to_string(sm);
    const float y = y0 + (static_cast<float>(sm) + 0.5f) * row - lh / 2;
    dl->AddText(ImVec2(origin.x, std::min(y, y1 - lh)), palette::text_dim.packed(), t.c_str());
  }
  // Time axis.
  const double step = tick_step(kernel, w, ImGui::CalcTextSize("00.0 us").x);
  for (double t = 0; t <= kernel * 1.0001; t += step) {
    const float x = x_of(t);
    dl->AddLine(ImVec2(x, y1), ImVec2(x, y1 + 4), palette::grid_line.packed());
    const std::string label = format_seconds(t * 1e-12);
    const float tw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(std::clamp(x - tw / 2, x0, x1 - tw), y1 + 5), palette::text_dim.packed(),
                label.c_str());
  }
  // The cursor: the simulated time of the current position.
  const float cx = x_of(now);
  dl->AddLine(ImVec2(cx, y0 - 2), ImVec2(cx, y1 + 2), palette::highlight.packed(), 2);

  // Hover: which program runs there, and clicking moves the cursor to it.
  ImGui::InvisibleButton("sms_canvas", ImVec2(avail.x, y1 - y0 + lh + 8));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int sm = static_cast<int>((mp.y - y0) / row);
    const double t = (mp.x - x0) / w * kernel;
    if (sm >= 0 && sm < sms && mp.x >= x0) {
      const sim::ProgramSpan* hit = nullptr;
      for (const sim::ProgramSpan& s : programs)
        if (s.sm == sm && static_cast<double>(s.start_ps) <= t &&
            t < static_cast<double>(s.end_ps)) {
          hit = &s;
          if (s.slot / sms == static_cast<int>((mp.y - y0 - sm * row) / sub)) break;
        }
      ImGui::BeginTooltip();
      ImGui::Text("SM %d at %s", sm, format_seconds(t * 1e-12).c_str());
      if (hit) {
        ImGui::Text("pid %lld: %s .. %s", (long long)hit->pid,
                    format_seconds(hit->start_ps * 1e-12).c_str(),
                    format_seconds(hit->end_ps * 1e-12).c_str());
        ImGui::Text("waited mostly on: %s",
                    std::string(sim::to_string(order.waited_on(hit->pid))).c_str());
        // Its time by cause as the engine attributed it (about the span: a dot's K-step noise is
        // in the span, not in its causes).
        for (const auto& [cause, name] : sim::kTimeCauseNames) {
          const std::int64_t ps = hit->time_by_cause[static_cast<std::size_t>(cause)];
          if (ps > 0)
            ImGui::TextDisabled("  %-13s %s", std::string(name).c_str(),
                                format_seconds(static_cast<double>(ps) * 1e-12).c_str());
        }
        ImGui::TextDisabled("click: go to this program");
        if (ImGui::IsMouseClicked(0)) f.cmds.push(SeekPid{hit->pid});
      } else {
        ImGui::TextDisabled("idle");
      }
      ImGui::EndTooltip();
    }
  }
  end_panel();
}

}  // namespace tilesim::app
