// The GPU panel's Triton-beside-CUDA table: Triton 3.6's own kernel for the open problem as
// measured on the preset's GPU (assets/measured/triton_GPU.json) and the CUDA rung measured on
// the same problem (the bench file), each with the timed engine's prediction under it, then one
// sentence on how far apart they are and why (triton_vs_rung.hpp). Draws only: the lookup is
// scenario::find_triton_measurement, the rung and the sentence app/core's.
#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "app/core/step_figures.hpp"
#include "app/core/triton_vs_rung.hpp"
#include "app/panels/gpu_parts.hpp"
#include "scenario/measured.hpp"
#include "scenario/triton_file_runs.hpp"
#include "scenario/triton_measured.hpp"

namespace tilesim::app {
namespace {

// "NVIDIA H100 80GB HBM3" -> "H100": the GPU as a row label and the sentence name it (the
// file's full name is the figure's source).
std::string short_gpu(const std::string& name) {
  const std::string prefix = "NVIDIA ";
  std::string s = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
  return s.substr(0, s.find(' '));
}

scenario::Figure triton_figure(const scenario::TritonMeasuredSet& set,
                               const scenario::TritonRecord& r, const std::string& name) {
  scenario::Figure fig;
  fig.name = name;
  fig.value = r.median_ms * 1e-3;
  fig.text = format_seconds(fig.value);
  fig.unit = "s";
  fig.kind = scenario::FigureKind::measured;
  fig.source = set.gpu + ", " + r.date + ", assets/measured/" +
               std::filesystem::path(r.source).filename().string();
  fig.detail =
      "Triton " + set.triton + "'s " + r.kernel + " kernel, do_bench median (" + r.id + ")";
  return fig;
}

// The Triton column's measured cell: the exact configuration's time, else the nearest measured
// one and how it differs, else why there is none.
void triton_measured_cell(FrameContext& f, const scenario::TritonMeasuredSet* set,
                          const scenario::TritonLookup& l) {
  if (!set) {
    text_words("not measured: no Triton measurements of the " + f.model.machine.name +
                   " preset (assets/measured/triton_" + f.model.machine.key + ".json)",
               palette::text_dim);
    return;
  }
  if (l.exact) {
    figure_text(f, triton_figure(*set, *l.exact, "gpu.triton.ms"));
    // The fit set tuned the model's Triton parameters; the test set never did (TRITON_SPLIT.md).
    const std::string when = "(" + l.exact->date + ", " + l.exact->split + " set)";
    same_line_if_fits(text_width(when.c_str()));
    ImGui::TextDisabled("%s", when.c_str());
    return;
  }
  if (!l.nearest) {
    text_words("not measured: no Triton kernel of this kind in the file", palette::text_dim);
    return;
  }
  text_words("not this configuration; nearest:", palette::text_dim);
  figure_text(f, triton_figure(*set, *l.nearest, "gpu.triton.nearest.ms"));
  ImGui::SameLine();
  // Only what differs from the open problem, with the measured kernel's setting.
  std::string with;
  for (const auto& d : l.differences) with += (with.empty() ? "with " : ", ") + d;
  text_words(with, palette::text_dim);
}

void predicted_cell(FrameContext& f, double seconds, const std::string& name,
                    const std::string& detail, bool pending) {
  if (seconds <= 0) {
    ImGui::TextDisabled(pending ? "predicting..." : "-");
    return;
  }
  figure_text(f, engine_figure(f.model, name, seconds, Shown::seconds, detail));
}

}  // namespace

void draw_kernel_file_run(FrameContext& f) {
  const KernelFileState* kf = f.model.kernel_file ? &*f.model.kernel_file : nullptr;
  if (!kf) return;
  const sim::Machine& m = f.model.machine;
  const auto* runs = scenario::bundled_triton_file_runs(m.key);
  const scenario::TritonFileRun* run = kf->measured_run(m.key);
  ImGui::Spacing();
  const std::string title = "Your kernel file, " + kf->path.filename().string() + " (" +
                            kf->kernel->source->fn.name + "), at its launch";
  text_colored(palette::highlight, title.c_str());
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##kernel_file_run", 3, flags)) {
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthStretch, 0.6f);
    ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string gpu = runs ? short_gpu(runs->gpu) : m.name;
    text_words("measured (" + gpu + (runs ? ", " + runs->date : std::string()) + ")",
               palette::text);
    ImGui::TableNextColumn();
    if (run) {
      scenario::Figure fig;
      fig.name = "gpu.kernel_file.measured";
      fig.value = run->median_ms * 1e-3;
      fig.text = format_seconds(fig.value);
      fig.unit = "s";
      fig.kind = scenario::FigureKind::measured;
      fig.source = runs->gpu + ", " + runs->date + ", assets/measured/" +
                   std::filesystem::path(runs->source).filename().string();
      fig.detail = "the file run with Triton " + runs->triton +
                   " by scripts/triton/run_file.py, do_bench median";
      figure_text(f, fig);
      ImGui::TableNextColumn();
      text_words("Triton " + runs->triton + ", do_bench median" +
                     (!run->checked  ? std::string()
                      : run->correct ? ", correct against float64"
                                     : ", WRONG against float64"),
                 palette::text_dim);
    } else {
      ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      text_words("not run at this launch on " + gpu + " (scripts/triton/run_file.py runs it)",
                 palette::text_dim);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text_words("predicted (" + m.name + " preset)", palette::text);
    ImGui::TableNextColumn();
    const double predicted_s = f.frame ? f.frame->timing.time_s() : 0;
    predicted_cell(f, predicted_s, "gpu.kernel_file.predicted",
                   "the timed engine, the file's problem as sim replays it", !f.frame);
    ImGui::TableNextColumn();
    text_words("timed engine: the problem the file was recognised as", palette::text_dim);
    ImGui::EndTable();
  }
}

void figure_text(FrameContext& f, const scenario::Figure& fig) {
  text_colored(figure_color(fig.kind), fig.text.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", fig.full_source().c_str());
  figure_drawn(f, fig);
}

void draw_triton_beside_rung(FrameContext& f,
                             const std::vector<const scenario::BenchRecord*>& matches,
                             const RungPredictions* predictions) {
  const sim::Problem& p = f.model.problem;
  const sim::Machine& m = f.model.machine;
  const auto* set = scenario::bundled_triton_measurements(m.key);
  const auto lookup =
      set ? scenario::find_triton_measurement(*set, p.spec()) : scenario::TritonLookup{};
  const auto* bench = f.ui.bench_report ? &*f.ui.bench_report : nullptr;
  // Beside Triton's GPU only: a bench file of another GPU is no comparison.
  const bool same_gpu =
      bench && (!set || scenario::machine_key_of_device(bench->device.name) == set->machine_key);
  const auto* rung = same_gpu ? rung_beside_triton(matches, p.spec()) : nullptr;
  const auto* v = rung ? kernels::find_variant(rung->result.variant) : nullptr;
  const auto described = v ? kernels::rung_timing(*v, rung->result.problem) : std::nullopt;
  const RungPrediction* rung_pred =
      rung && predictions
          ? find_prediction(*predictions, {rung->result.variant, rung->result.problem})
          : nullptr;
  const double triton_pred_s = f.frame ? f.frame->timing.time_s() : 0;
  const double rung_pred_s =
      rung_pred && rung_pred->modelled && rung_pred->error.empty() ? rung_pred->timing.time_s() : 0;

  ImGui::Spacing();
  text_colored(palette::highlight, "Triton's kernel beside the CUDA rung, same problem");
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##triton_vs_rung", 3, flags)) {
    const std::string measured_label = "measured, " + (set ? short_gpu(set->gpu) : m.name);
    const std::string predicted_label = "predicted, " + m.name + " preset";
    // Labels wrap at slide size; the figures' columns keep room for a variant's name.
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 0.85f);
    ImGui::TableSetupColumn(("Triton " + (set ? set->triton : std::string("3.6"))).c_str(),
                            ImGuiTableColumnFlags_WidthStretch, 1.0f);
    // The rung's column at least as wide as its name (one word: it cannot wrap), the others
    // sharing the rest as 0.85 : 1.
    const float name_px =
        rung ? text_width(rung->result.variant.c_str()) + 4 * ImGui::GetStyle().CellPadding.x : 0;
    const float avail_px = ImGui::GetContentRegionAvail().x;
    const float rung_weight =
        avail_px > name_px ? std::max(1.0f, name_px * 1.85f / (avail_px - name_px)) : 1.0f;
    ImGui::TableSetupColumn("CUDA rung", ImGuiTableColumnFlags_WidthStretch, rung_weight);
    ImGui::TableHeadersRow();

    // The kernels, in the rows (a header cell would cut a long variant name).
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("kernel");
    ImGui::TableNextColumn();
    if (lookup.exact || lookup.nearest)
      text_words(lookup.exact ? lookup.exact->kernel + " (its own compiled kernel)"
                              : lookup.nearest->kernel + " (nearest measured)",
                 palette::text);
    else
      ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    if (rung)
      text_words(rung->result.variant, palette::text);
    else
      ImGui::TextDisabled("-");

    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text_words(measured_label, palette::text);
    ImGui::TableNextColumn();
    triton_measured_cell(f, set, lookup);
    ImGui::TableNextColumn();
    if (rung) {
      figure_text(f, measured_run_figure(rung->result, bench_source(*bench, f.ui.bench_path,
                                                                    f.ui.bench_bundled, rung)));
      const std::string when = "(" + scenario::record_date(*bench, *rung).substr(0, 10) + ")";
      same_line_if_fits(text_width(when.c_str()));
      ImGui::TextDisabled("%s", when.c_str());
    } else {
      text_words(!bench      ? std::string("no tilesim-bench file loaded")
                 : !same_gpu ? "the bench file is of " + bench->device.name
                             : std::string("no rung the model describes ran this problem"),
                 palette::text_dim);
    }

    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text_words(predicted_label, palette::text);
    ImGui::TableNextColumn();
    predicted_cell(f, triton_pred_s, "gpu.triton.predicted",
                   "Triton's kernel for the open problem, whole run", !f.frame);
    ImGui::TableNextColumn();
    if (rung)
      predicted_cell(f, rung_pred_s, "gpu." + rung->result.variant + ".predicted",
                     rung->result.variant + " as its own rung runs it, whole run", !rung_pred);
    else
      ImGui::TextDisabled("-");

    ImGui::EndTable();
  }

  // The sentence: only where both kernels ran this very configuration on one GPU.
  std::string sentence;
  if (lookup.exact && rung && described) {
    const KernelTimes triton{lookup.exact->median_ms * 1e-3, triton_pred_s};
    const KernelTimes cuda{rung->result.median_ms * 1e-3, rung_pred_s};
    sentence = triton_rung_sentence(p, m, rung->result.variant, *described, triton, cuda,
                                    short_gpu(set->gpu));
    if (sentence.empty())
      sentence = "Measured on the " + short_gpu(set->gpu) + ", Triton's kernel and " +
                 rung->result.variant + " are within 10 % of each other.";
  } else if (set && !lookup.exact && lookup.nearest && rung) {
    sentence =
        "Triton was not measured at this configuration, so the two are not compared: set the "
        "problem to the nearest measured one to compare them.";
  }
  if (!sentence.empty()) text_words(sentence, palette::text);
}

}  // namespace tilesim::app
