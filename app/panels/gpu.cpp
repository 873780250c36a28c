// GPU panel: the open problem's kernel run for real (kernels::run, same order and blocks) on a
// worker thread, beside the timed engine's prediction for that very rung (rung_predictions.hpp);
// without a device, one sentence says why, and a `tilesim-bench --json` file measured elsewhere
// can be loaded instead. Above the table: Triton's own kernel beside the CUDA rung
// (gpu_triton.cpp).
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "app/panels/gpu_parts.hpp"

namespace tilesim::app {
namespace {

// What the prediction cell shows for one row.
struct PredictionCell {
  const RungPrediction* p = nullptr;  // null: not predicted yet
  bool pending = false;               // the predictions of these rows are being computed
};

// What the timed engine was told about a rung, in a few words: "mma.sync, 8 warps, 4 stages,
// 128x256x32 (215 instr)" (the shared layout only where it conflicts on banks, the exception).
std::string described_as(const RungPrediction& p) {
  const auto& s = p.timed;
  const std::string tile = std::to_string(s.block_m) + "x" + std::to_string(s.block_n);
  const bool plain = p.timing.costs.layout == sim::SmemLayout::plain;
  // Copies and transposes whose threads keep few loads in flight: "4 B in flight per thread, 16
  // round trips" (the latency-bound ones, docs/MODEL.md).
  const auto& c = p.timing.costs;
  const std::string in_flight =
      c.load_rounds > 0 ? ", " + std::to_string(c.load_round_bytes / (32 * s.num_warps)) +
                              " B in flight per thread, " + std::to_string(c.load_rounds) +
                              (c.load_rounds == 1 ? " round trip" : " round trips")
                        : "";
  const std::string stream =
      c.stream_warp_instructions > 0
          ? " (" + std::to_string(std::lround(c.stream_warp_instructions)) + " instr)"
          : "";
  switch (s.kernel) {
    case sim::Kernel::copy:
      return tile + " tiles" + in_flight + stream;
    case sim::Kernel::transpose:
      return tile + " tiles, " + (plain ? "bank conflicts" : "no bank conflicts") + in_flight +
             stream;
    case sim::Kernel::matmul:
      break;
  }
  // The rung's own code, where the registry counts it: " (305 instr)" per warp and K step, the
  // issue limit; the rest in the cell's tooltip (code_of).
  const std::string instructions =
      c.dot_warp_instructions > 0
          ? " (" + std::to_string(std::lround(c.dot_warp_instructions)) + " instr)"
          : "";
  return std::string(sim::to_string(c.path)) + ", " + std::to_string(s.num_warps) + " warps, " +
         std::to_string(s.stages) + (s.stages == 1 ? " stage, " : " stages, ") + tile + "x" +
         std::to_string(s.block_k) + (plain ? ", bank conflicts" : "") + instructions;
}

// What the engine knows of a matmul rung's compiled code, for the tooltip: its loop's warp
// instructions per K step and, on mma.sync, whether fragments are loaded a step ahead (the
// operand reads then overlap the math).
std::string code_of(const RungPrediction& p) {
  const auto& c = p.timing.costs;
  if (p.timed.kernel != sim::Kernel::matmul && c.stream_warp_instructions > 0) {
    char us[32];
    std::snprintf(us, sizeof us, "%.2f", static_cast<double>(c.stream_ps) * 1e-6);
    return "Each warp issues " + std::to_string(std::lround(c.stream_warp_instructions)) +
           " instructions per program (Nsight Compute's count: index arithmetic, then per\n"
           "global load its address steps, the store and the loop test), about 5 cycles each\n"
           "outside its memory waits: " +
           std::string(us) +
           " us in series with its loads, and the program\n"
           "goes on when its slowest warp's loads are back.";
  }
  if (p.timed.kernel != sim::Kernel::matmul || c.dot_warp_instructions <= 0) return "";
  std::string out = "Each warp issues " + std::to_string(std::lround(c.dot_warp_instructions)) +
                    " instructions per K step (the compiled loop as Nsight Compute counts it,\n"
                    "or the model's estimate at a tile it was not counted at): each of the SM's\n"
                    "schedulers issues under one per cycle, a warp one per few cycles, so the\n"
                    "step cannot be faster than that.";
  if (c.path == sim::MathPath::mma_sync)
    out += c.operands_overlap_math
               ? "\nFragments are loaded a K step ahead: ldmatrix overlaps the mma."
               : "\nEach mma waits for its own ldmatrix: operand reads and math add up.";
  return out;
}

void description_cell(const PredictionCell& cell) {
  if (!cell.p || !cell.p->modelled) {
    ImGui::TextDisabled("-");
    return;
  }
  ImGui::TextUnformatted(described_as(*cell.p).c_str());
  const std::string code = code_of(*cell.p);
  if (!code.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", code.c_str());
}

void prediction_cell(FrameContext& f, const kernels::RunResult& r, const PredictionCell& cell) {
  if (!cell.p) {
    ImGui::TextDisabled(cell.pending ? "predicting..." : "-");
    return;
  }
  const RungPrediction& p = *cell.p;
  if (!p.modelled) {
    ImGui::TextDisabled("not modelled");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The timed engine has no description of %s (naive kernels, cuBLAS).",
                        r.variant.c_str());
    return;
  }
  if (!p.error.empty() || p.timing.kernel_ps <= 0) {
    text_colored(palette::l2_miss, "cannot predict");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.error.c_str());
    return;
  }
  const double predicted_s = p.timing.time_s();
  auto fig = engine_figure(f.model, "gpu." + r.variant + ".predicted", predicted_s, Shown::seconds,
                           r.variant + " as its own rung runs it, whole run");
  figure_drawn(f, fig);
  // measured / predicted: 1.00 x is a perfect prediction, above 1 the GPU was slower.
  char b[96];
  std::snprintf(b, sizeof b, "%s  (measured %.2f x)", format_seconds(predicted_s).c_str(),
                r.median_ms * 1e-3 / predicted_s);
  ImGui::TextUnformatted(b);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the timed engine's time for %s, %s bound (its largest cause)",
                      r.variant.c_str(),
                      std::string(sim::to_string(p.timing.breakdown.bound())).c_str());
}

// `where`: the registered figure's source (device, date and file for a bench record).
void result_row(FrameContext& f, const char* source, const std::string& where,
                const kernels::RunResult& r, double pct, const PredictionCell& cell) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(source);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(r.variant.c_str());
  ImGui::TableNextColumn();
  if (!r.ok) {
    text_colored(palette::l2_miss, r.error.c_str());
    return;
  }
  text_colored(palette::highlight, format_seconds(r.median_ms * 1e-3).c_str());
  figure_drawn(f, measured_run_figure(r, where));
  ImGui::TableNextColumn();
  ImGui::Text("%.1f %s", r.throughput, r.throughput_unit.c_str());
  ImGui::TableNextColumn();
  if (pct > 0)
    ImGui::Text("%.0f %%", pct);
  else
    ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  if (r.checked) {
    char b[48];
    std::snprintf(b, sizeof b, "%.1e %s", r.rel_error, r.correct ? "ok" : "WRONG");
    text_colored(r.correct ? palette::text : palette::l2_miss, b);
  } else {
    ImGui::TextDisabled("not checked");
  }
  ImGui::TableNextColumn();
  description_cell(cell);
  ImGui::TableNextColumn();
  prediction_cell(f, r, cell);
}

}  // namespace

void draw_gpu(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::gpu, "GPU: the same kernel, measured", r)) {
    center_tabs(f);
    help_marker(f, "gpu");
    const auto& p = f.model.problem;
    auto& jobs = *f.model.jobs;
    f.cmds.push(QueryDevice{});  // once: later requests are no-ops
    const auto dev = jobs.device.result();
    bool have_device = false;
    if (!dev) {
      ImGui::TextDisabled("looking for a CUDA device...");
    } else if (dev->available) {
      have_device = true;
      ImGui::Text("Device: %s (%d SMs, %s L2, compute %d.%d)", dev->name.c_str(), dev->sm_count,
                  format_bytes(double(dev->l2_bytes)).c_str(), dev->cc_major, dev->cc_minor);
    } else if (f.ui.figure && f.ui.lesson) {
      // A lesson's slide is about the measurements, not about the machine that drew it.
      ImGui::TextDisabled("measured on a GPU: a tilesim-bench --json file");
    } else {
      ImGui::PushTextWrapPos(0);
      text_colored(palette::b, no_device_sentence(*dev).c_str());
      ImGui::PopTextWrapPos();
    }
    // Variant chooser, filtered to this kernel and dtype.
    const auto vars = gpu_variants(p);
    if (!vars.empty() && (f.ui.gpu_variant.empty() ||
                          std::none_of(vars.begin(), vars.end(),
                                       [&](auto* v) { return v->name == f.ui.gpu_variant; })))
      f.ui.gpu_variant = vars.front()->name;
    // The controls: not on a lesson's slide, where nobody can press them.
    const bool slide = f.ui.figure && f.ui.lesson;
    if (!slide) {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
      if (ImGui::BeginCombo("variant", f.ui.gpu_variant.c_str())) {
        for (const auto* v : vars)
          if (ImGui::Selectable(v->name.c_str(), v->name == f.ui.gpu_variant))
            f.ui.gpu_variant = v->name;
        ImGui::EndCombo();
      }
      if (const auto* v = kernels::find_variant(f.ui.gpu_variant); v && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", v->teaches.c_str());
      ImGui::SameLine();
      // One run at a time: overlapping runs would time each other and share one cuBLAS handle.
      const bool can_run = have_device && !jobs.gpu.pending();
      if (!can_run) ImGui::BeginDisabled();
      if (ImGui::Button("Run on GPU")) f.cmds.push(RunOnGpu{f.ui.gpu_variant});
      if (!can_run) ImGui::EndDisabled();
      if (jobs.gpu.pending()) {
        ImGui::SameLine();
        ImGui::TextDisabled("running (check, warm-up, timed launches)...");
      }
    }
    // A bench file measured elsewhere. Until the user loads one of their own, the panel shows
    // the file shipped for the open machine preset (assets/measured/bench_<preset>.json), so it
    // shows real measurements of that chip even without a GPU, and follows a change of preset.
    if (f.ui.bench_bundled) {
      const std::string bundled = bundled_bench_path(f.model.machine.key);
      if (bundled.empty()) {
        if (f.ui.bench_path.empty()) f.ui.bench_path = "bench.json";
      } else if (bundled != f.ui.bench_path) {
        f.ui.bench_path = bundled;
        try {
          f.ui.bench_report = scenario::load_bench_file(f.ui.bench_path);
          f.ui.bench_error.clear();
        } catch (const std::exception& e) {
          f.ui.bench_error = e.what();
        }
      }
    }
    if (!slide) {
      char buf[512];
      std::snprintf(buf, sizeof buf, "%s", f.ui.bench_path.c_str());
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 12);
      if (ImGui::InputText("##benchpath", buf, sizeof buf)) {
        f.ui.bench_path = buf;
        f.ui.bench_bundled = false;
      }
      ImGui::SameLine();
      if (ImGui::Button("Load tilesim-bench --json")) {
        try {
          f.ui.bench_report = scenario::load_bench_file(f.ui.bench_path);
          f.ui.bench_error.clear();
        } catch (const std::exception& e) {
          f.ui.bench_error = e.what();
        }
      }
    }
    if (!f.ui.bench_error.empty())
      text_colored(palette::l2_miss, f.ui.bench_error.c_str());
    else if (f.ui.bench_report)
      text_words("bench file: " + bench_label(*f.ui.bench_report), palette::text_dim);

    // Each measured row's own prediction (its rung as the registry describes it), computed on a
    // worker thread once per set of rows and machine: pushing the same rows again is a no-op.
    const auto live = jobs.gpu.result();
    const auto matches = f.ui.bench_report ? bench_matches(*f.ui.bench_report, p.spec())
                                           : std::vector<const scenario::BenchRecord*>{};
    std::vector<RungRow> rows;
    if (live && live->result.ok) rows.push_back({live->result.variant, live->result.problem});
    for (const auto* rec : matches) rows.push_back({rec->result.variant, rec->result.problem});
    if (!rows.empty()) f.cmds.push(PredictRungs{rows});
    const auto predictions = jobs.rungs.current() ? jobs.rungs.result() : std::nullopt;
    const auto cell = [&](const kernels::RunResult& r) {
      PredictionCell c{nullptr, jobs.rungs.pending()};
      if (predictions) c.p = find_prediction(*predictions, {r.variant, r.problem});
      return c;
    };
    draw_kernel_file_run(f);
    draw_triton_beside_rung(f, matches, predictions ? &*predictions : nullptr);
    ImGui::Spacing();
    text_colored(palette::highlight, "Every measured run of this problem");
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("##gpu", 8, flags)) {
      for (const char* h :
           {"measured on", "variant", "time (median)", "throughput", "% of baseline", "rel. error",
            "timed engine sees", "timed engine predicts"})
        ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      if (live)
        result_row(f, ("live: " + live->result.device).c_str(),
                   "live run on " + live->result.device, live->result, live->pct_of_baseline(),
                   cell(live->result));
      if (f.ui.bench_report) {
        // date, commit: above the table (and in the registered figure's source)
        const std::string label = f.ui.bench_report->device.name;
        for (const auto* rec : matches)
          result_row(f, label.c_str(),
                     bench_source(*f.ui.bench_report, f.ui.bench_path, f.ui.bench_bundled, rec),
                     rec->result, rec->pct_of_baseline, cell(rec->result));
      }
      ImGui::EndTable();
    }
    if (f.ui.bench_report) draw_sustained_runs(f, *f.ui.bench_report, matches);
    if (f.ui.bench_report && matches.empty())
      ImGui::TextDisabled(
          "%s holds %zu records, none timed on this problem (same sizes, dtype, blocks, order).",
          f.ui.bench_path.c_str(), f.ui.bench_report->records.size());
    if (!rows.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled(
          "Each row is predicted for its own rung: the problem as that kernel runs it, described "
          "to the timed engine as the variant registry says (\"sees\": math path, warps, "
          "pipeline stages, tile, loads in flight, and the warp instructions its compiled code "
          "issues, per K step for a matmul and per program for a copy or transpose, counted by "
          "Nsight Compute: hover for more), on %s. Rows the engine cannot describe (naive "
          "kernels, cuBLAS) say not modelled; hover a prediction for what its time went to.",
          f.model.machine.name.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  end_panel();
}

}  // namespace tilesim::app
