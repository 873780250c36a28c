// Controls: the problem (kernel, sizes, dtype, blocks, GROUP_SIZE_M, launch order, boundary,
// B layout, machine, programs per SM), playback (play/pause, speed, step by event, K-iteration,
// program or wave, scrubber), scenarios (open/save) and figures. An invalid value is shown in
// red beside its field while the previous valid problem stays on screen.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "app/core/options.hpp"
#include "app/panels/panels.hpp"
#include "scenario/kernel_file.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/program_trace.hpp"
#include "sim/program/schedule.hpp"

namespace tilesim::app {
namespace {

template <class E, std::size_t N>
bool enum_combo(const char* label, E& value, const E (&values)[N]) {
  bool changed = false;
  if (ImGui::BeginCombo(label, std::string(sim::to_string(value)).c_str())) {
    for (E v : values) {
      if (ImGui::Selectable(std::string(sim::to_string(v)).c_str(), v == value)) {
        value = v;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool block_combo(const char* label, int& value) {
  bool changed = false;
  if (ImGui::BeginCombo(label, std::to_string(value).c_str())) {
    for (int b = 1; b <= sim::kMaxBlock; b *= 2)
      if (ImGui::Selectable(std::to_string(b).c_str(), b == value)) {
        value = b;
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

void field_error(const FrameContext& f, const char* field) {
  if (f.model.field_error && f.model.field_error->field == field) {
    ImGui::PushTextWrapPos(0);
    text_colored(palette::l2_miss, f.model.field_error->message.c_str());
    ImGui::PopTextWrapPos();
  }
}

// A kernel file being read on a worker (File -> Open kernel, --triton, a save): which, for how
// long, and a way to stop waiting. The front end reports no progress of its own, so the time
// waited is shown rather than a bar that would not move; it has a line of its own, as wrapping
// may break a number after its decimal point.
void kernel_read_status(FrameContext& f) {
  const Jobs& j = *f.model.jobs;
  if (!j.kernel.pending()) return;
  const std::string text = std::string(j.kernel_request.reload ? "Reloading " : "Opening kernel ") +
                           j.kernel_request.path.filename().string() +
                           ": reading and recognising it";
  ImGui::PushTextWrapPos(0);
  text_colored(palette::highlight, text.c_str());
  ImGui::PopTextWrapPos();
  if (!f.ui.figure) {
    if (ImGui::SmallButton("Cancel##kernel_read")) f.cmds.push(CancelKernelOpen{});
    ImGui::SameLine();
  }
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - j.kernel_requested_at)
          .count();
  ImGui::TextDisabled("%s so far", format_seconds(waited).c_str());
}

}  // namespace

// The event order (timed or a round schedule) and the playback rate that goes with it: GPU time
// per wall second for the timed order, events per second for rounds.
static void draw_event_order(FrameContext& f) {
  const AppModel& m = f.model;
  // Room for the widest label of the three ("event order" was cut at 1600 x 900).
  const float label_w =
      std::max({text_width("event order"), text_width("GPU ns/s"), text_width("events/s")}) +
      ImGui::GetStyle().ItemInnerSpacing.x * 2;
  ImGui::SetNextItemWidth(-label_w);
  // The choices are sim's name table, as --event-order spells them.
  const std::string current(sim::to_string(m.event_order));
  if (ImGui::BeginCombo("event order", current.c_str())) {
    for (const auto& [kind, name] : sim::kEventOrderNames) {
      const std::string label(name);
      if (ImGui::Selectable(label.c_str(), kind == m.event_order) && kind != m.event_order)
        f.cmds.push(SetEventOrder{kind});
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(-label_w);
  if (m.event_order == sim::EventOrderKind::timed) {
    float ns = static_cast<float>(m.ps_per_second * 1e-3);  // ns of GPU time per second
    if (ImGui::SliderFloat("GPU ns/s", &ns, 1.0f, 1e6f, "%.0f", ImGuiSliderFlags_Logarithmic))
      f.cmds.push(SetTimeRate{static_cast<double>(ns) * 1e3});
    if (f.frame && f.frame->order && f.frame->order->timed())
      ImGui::TextDisabled("t = %s of %s GPU time",
                          format_seconds(f.frame->snapshot.time_ps * 1e-12).c_str(),
                          format_seconds(f.frame->order->kernel_ps() * 1e-12).c_str());
    return;
  }
  float speed = static_cast<float>(m.speed);
  if (ImGui::SliderFloat("events/s", &speed, 0.5f, 5000.0f, "%.1f", ImGuiSliderFlags_Logarithmic))
    f.cmds.push(SetSpeed{speed});
}

void draw_controls(FrameContext& f, const Rect& r) {
  const AppModel& m = f.model;
  UiState& ui = f.ui;
  if (!ui.synced_spec || *ui.synced_spec != m.scenario.problem) {
    ui.edit_spec = m.scenario.problem;
    ui.synced_spec = m.scenario.problem;
  }
  if (begin_panel(f, PanelId::controls, "tilesim", r)) {
    ImGui::PushFont(f.fonts.title);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(m.scenario.title.empty() ? m.scenario.name.c_str()
                                                    : m.scenario.title.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    if (!m.scenario.description.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", m.scenario.description.c_str());
      ImGui::PopTextWrapPos();
    }
    kernel_read_status(f);
    // --- Playback -------------------------------------------------------------------------
    ImGui::Separator();
    const auto at = f.at;
    const auto step = sim::program_step(m.problem, at.pid, at.step);
    if (has_current_event(f.frame)) {
      // Positions count events run (--seek N); events are named by 0-based index (--event E,
      // a lesson's {"event": E}): after N events the one shown is event #N-1.
      ImGui::TextWrapped("%s / %s events run", format_count(m.position()).c_str(),
                         format_count(m.events()).c_str());
      ImGui::Text("event #%s: pid %lld, step %lld", format_count(m.position() - 1).c_str(),
                  (long long)at.pid, (long long)at.step);
      ImGui::SameLine();
      text_colored(palette::highlight, std::string(sim::to_string(step.op)).c_str());
    } else {
      ImGui::Text("%s / %s events run", format_count(m.position()).c_str(),
                  format_count(m.events()).c_str());
    }
    help_marker(f, "controls");
    if (f.frame && !f.frame->counters_only)
      ImGui::TextDisabled("wave %lld of %lld, %zu programs resident",
                          (long long)std::min(f.frame->snapshot.wave + 1, f.frame->waves),
                          (long long)f.frame->waves, f.frame->snapshot.residents.size());
    engine_status_line(f);
    if (ImGui::Button("|<")) f.cmds.push(SeekHome{});
    ImGui::SameLine();
    if (ImGui::Button("<")) f.cmds.push(StepBy{ui.step_unit, -1});
    ImGui::SameLine();
    if (ImGui::Button(m.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4, 0)))
      f.cmds.push(TogglePlay{});
    ImGui::SameLine();
    if (ImGui::Button(">")) f.cmds.push(StepBy{ui.step_unit, +1});
    ImGui::SameLine();
    if (ImGui::Button(">|")) f.cmds.push(SeekEnd{});
    ImGui::SameLine();
    if (ImGui::Button("Reset")) f.cmds.push(Reset{});
    int unit = static_cast<int>(ui.step_unit);
    const char* units[] = {"event", "K-iteration", "program", "wave"};
    // Room for the longest label at any --scale or font size ("step b" was cut at --scale 2).
    const float label_w =
        ImGui::CalcTextSize("timeline").x + 2 * ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(-label_w);
    ImGui::Combo("step by", &unit, units, 4);
    ui.step_unit = static_cast<StepUnit>(unit);
    std::int64_t pos = m.position();
    const std::int64_t lo = 0, hi = m.events();
    ImGui::SetNextItemWidth(-label_w);
    if (ImGui::SliderScalar("timeline", ImGuiDataType_S64, &pos, &lo, &hi, "%lld run"))
      f.cmds.push(Seek{pos});
    draw_event_order(f);
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "Keys: Space play/pause, Left/Right step, Shift+Left/Right program, Home/End");
    ImGui::PopTextWrapPos();

    // --- Problem --------------------------------------------------------------------------
    ImGui::Separator();
    sim::ProblemSpec& e = ui.edit_spec;
    bool changed = false;
    std::string field;
    auto mark = [&](bool c, const char* name) {
      if (c) {
        changed = true;
        field = name;
      }
    };
    const float item_w = ImGui::GetContentRegionAvail().x * 0.55f;
    ImGui::PushItemWidth(item_w);
    static constexpr sim::Kernel kernels[] = {sim::Kernel::copy, sim::Kernel::transpose,
                                              sim::Kernel::matmul};
    mark(enum_combo("kernel", e.kernel, kernels), "kernel");
    const bool mm = e.kernel == sim::Kernel::matmul;
    const std::int64_t step1 = 1, step64 = 64;
    mark(ImGui::InputScalar("M", ImGuiDataType_S64, &e.m, &step1, &step64), "m");
    field_error(f, "m");
    mark(ImGui::InputScalar("N", ImGuiDataType_S64, &e.n, &step1, &step64), "n");
    field_error(f, "n");
    if (mm) {
      mark(ImGui::InputScalar("K", ImGuiDataType_S64, &e.k, &step1, &step64), "k");
      field_error(f, "k");
    }
    static constexpr sim::DType dtypes[] = {sim::DType::fp16, sim::DType::bf16, sim::DType::fp32};
    mark(enum_combo("dtype", e.dtype, dtypes), "dtype");
    mark(block_combo("BLOCK_M", e.block_m), "block_m");
    field_error(f, "block_m");
    mark(block_combo("BLOCK_N", e.block_n), "block_n");
    field_error(f, "block_n");
    if (mm) {
      mark(block_combo("BLOCK_K", e.block_k), "block_k");
      field_error(f, "block_k");
    }
    static constexpr sim::LaunchOrder orders[] = {
        sim::LaunchOrder::row_major, sim::LaunchOrder::column_major, sim::LaunchOrder::grouped,
        sim::LaunchOrder::grouped_legacy};
    mark(enum_combo("launch order", e.order, orders), "order");
    mark(ImGui::InputScalar("GROUP_SIZE_M", ImGuiDataType_S64, &e.group_size_m, &step1),
         "group_size_m");
    field_error(f, "group_size_m");
    static constexpr sim::Boundary bounds[] = {sim::Boundary::mask, sim::Boundary::wrap};
    mark(enum_combo("boundary", e.boundary, bounds), "boundary");
    if (mm) {
      static constexpr sim::BLayout layouts[] = {sim::BLayout::row_major, sim::BLayout::transposed};
      mark(enum_combo("B layout", e.b_layout, layouts), "b_layout");
    }
    if (changed) f.cmds.push(SetSpec{e, field});
    if (m.field_error && m.field_error->field != "m" && m.field_error->field != "n" &&
        m.field_error->field != "k" && m.field_error->field.rfind("block_", 0) != 0 &&
        m.field_error->field != "group_size_m")
      field_error(f, m.field_error->field.c_str());

    // Compare order, machine, programs per SM.
    int cmp = m.scenario.compare_order ? static_cast<int>(*m.scenario.compare_order) + 1 : 0;
    const char* cmp_names[] = {"(none)", "row-major", "column-major", "grouped", "grouped-legacy"};
    if (ImGui::Combo("compare with", &cmp, cmp_names, 5))
      f.cmds.push(SetCompareOrder{
          cmp == 0 ? std::nullopt : std::optional(static_cast<sim::LaunchOrder>(cmp - 1))});
    if (ImGui::BeginCombo("machine", m.scenario.machine.c_str())) {
      for (const auto& preset : sim::machine_presets())
        if (ImGui::Selectable(
                (preset.key + "  (" + preset.name + ", " + std::to_string(preset.sms) + " SMs)")
                    .c_str(),
                preset.key == m.scenario.machine))
          f.cmds.push(SetMachine{preset.key});
      ImGui::EndCombo();
    }
    int pps = static_cast<int>(m.programs_per_sm());
    if (ImGui::InputInt("programs/SM", &pps) && pps >= 1 && pps <= 64)
      f.cmds.push(SetProgramsPerSm{pps});
    ImGui::TextDisabled("wave = %lld SMs x %lld = %lld programs", (long long)m.sms(),
                        (long long)m.programs_per_sm(), (long long)m.wave_programs());
    ImGui::PopItemWidth();

    // --- Scenarios and figures ------------------------------------------------------------
    ImGui::Separator();
    static const std::vector<std::filesystem::path> files =
        scenario::list_scenarios(scenario::assets_dir() / "scenarios");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##open", "Open a teaching scenario...")) {
      for (const auto& p : files)
        if (ImGui::Selectable(p.stem().string().c_str())) f.cmds.push(LoadScenario{p});
      ImGui::EndCombo();
    }
    // File -> Open kernel: a Triton file (.py), one of assets/kernels/ or a path.
    static const std::vector<std::filesystem::path> kernel_files =
        scenario::bundled_kernel_files();  // read once: the bundled files do not change
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##kernels", "Open kernel (a Triton .py file)...")) {
      for (const auto& p : kernel_files)
        if (ImGui::Selectable(p.filename().string().c_str())) f.cmds.push(OpenKernel{p, {}, {}});
      ImGui::EndCombo();
    }
    if (ui.kernel_path.empty() && m.kernel_file) {
      std::error_code ec;  // shown from the working directory where it is under it
      const auto shown = std::filesystem::proximate(m.kernel_file->path, ec);
      ui.kernel_path =
          (ec || shown.string().rfind("..", 0) == 0 ? m.kernel_file->path : shown).string();
    }
    char kbuf[512];
    std::snprintf(kbuf, sizeof kbuf, "%s", ui.kernel_path.c_str());
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 7.5f);
    if (ImGui::InputTextWithHint("##kernelpath", "path/to/kernel.py", kbuf, sizeof kbuf))
      ui.kernel_path = kbuf;
    ImGui::SameLine();
    if (ImGui::Button("Open kernel") && !ui.kernel_path.empty())
      f.cmds.push(OpenKernel{ui.kernel_path, {}, {}});
    if (m.kernel_file && !m.kernel_file->error.empty()) {
      ImGui::PushTextWrapPos(0);
      text_colored(palette::l2_miss, m.kernel_file->error.c_str());
      ImGui::PopTextWrapPos();
    }
    if (ui.save_path.empty())
      ui.save_path =
          (m.path.empty() ? std::filesystem::path(m.scenario.name + ".json") : m.path).string();
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s", ui.save_path.c_str());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##path", buf, sizeof buf)) ui.save_path = buf;
    if (ImGui::Button("Open file")) {  // a .py is a kernel file, anything else a scenario
      if (std::filesystem::path(ui.save_path).extension() == ".py")
        f.cmds.push(OpenKernel{ui.save_path, {}, {}});
      else
        f.cmds.push(LoadScenario{ui.save_path});
    }
    ImGui::SameLine();
    if (ImGui::Button("Save scenario")) f.cmds.push(SaveScenario{ui.save_path});
    ImGui::SameLine();
    if (ImGui::Button("Lessons")) {  // the lesson panel takes this column, index open
      try {
        const auto all = scenario::list_lessons(scenario::assets_dir() / "lessons");
        if (!all.empty()) {
          ui.lesson = open_lesson(all.front().path.string());
          ui.lesson->show_index = true;
        }
      } catch (const std::exception& e) {
        ui.last_figure = std::string("error: ") + e.what();
      }
    }
    int fig = ui.figure_panel ? static_cast<int>(*ui.figure_panel) + 1 : 0;
    const char* figs[kPanelCount + 1] = {"window"};
    for (int i = 0; i < kPanelCount; ++i) figs[i + 1] = panel_name(static_cast<PanelId>(i)).data();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    if (ImGui::Combo("##fig", &fig, figs, kPanelCount + 1))
      ui.figure_panel = fig == 0 ? std::nullopt : std::optional(static_cast<PanelId>(fig - 1));
    ImGui::SameLine();
    if (ImGui::Button("Save PNG (Ctrl+S)")) ui.capture = CaptureRequest{ui.figure_panel, {}};
    if (!ui.last_figure.empty()) ImGui::TextDisabled("wrote %s", ui.last_figure.c_str());
    if (!m.status.empty()) {
      ImGui::PushTextWrapPos(0);
      text_colored(m.status_is_error ? palette::l2_miss : palette::text_dim, m.status.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  end_panel();
}

}  // namespace tilesim::app
