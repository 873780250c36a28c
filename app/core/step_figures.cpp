// A lesson step's figures in the app (see step_figures.hpp).
#include "app/core/step_figures.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "scenario/lesson_text.hpp"
#include "sim/base/format.hpp"
#include "sim/memory/counters.hpp"

namespace tilesim::app {

sim::ReplayResult whole_run(const AppModel& m, const sim::Problem& p, const EngineFrame& f) {
  sim::ReplayResult r;
  r.occupancy = m.occupancy;
  r.order = m.event_order;
  r.waves = f.waves;
  r.counters = f.final_counters;
  r.roofline = sim::roofline(f.final_counters, p, m.machine);
  r.timing = f.timing;
  return r;
}

void make_figure_context(const AppModel& m, const EngineFrame* a, const EngineFrame* b,
                         AppFigureContext& out) {
  auto& c = out.ctx;
  c = {};
  c.problem = &m.problem;
  c.machine = &m.machine;
  c.event_order = m.event_order;
  c.bench = &scenario::bundled_bench_files();
  c.quotes = &scenario::bundled_quotes();
  c.programs_started = m.problem.programs();
  if (a) {
    out.run = whole_run(m, m.problem, *a);
    c.run = &out.run;
    c.now = &a->snapshot;
    if (a->order) c.programs_started = a->order->programs_started(a->position);
  }
  if (m.compare) {
    c.compare_problem = &*m.compare;
    if (b) {
      out.compare_run = whole_run(m, *m.compare, *b);
      c.compare_run = &out.compare_run;
    }
  }
}

scenario::Figure engine_figure(const AppModel& m, std::string name, double value, Shown how,
                               std::string detail) {
  scenario::Figure f;
  f.name = std::move(name);
  f.value = value;
  f.kind = scenario::FigureKind::predicted;
  f.source = "timed engine, " + m.machine.name + " preset, " +
             std::string(sim::to_string(m.event_order)) + " event order";
  f.detail = std::move(detail);
  switch (how) {
    case Shown::bytes:
      f.text = sim::format_bytes(value), f.unit = "B";
      break;
    case Shown::fraction:
      f.text = sim::format_percent(value), f.unit = "fraction";
      break;
    case Shown::count:
      f.text = sim::format_count(static_cast<long long>(value)), f.unit = "count";
      break;
    case Shown::seconds:
      f.text = sim::format_seconds(value), f.unit = "s";
      break;
  }
  return f;
}

scenario::Figure measured_run_figure(const kernels::RunResult& r, const std::string& where) {
  scenario::Figure f;
  f.name = "gpu." + r.variant + ".ms";
  f.value = r.median_ms * 1e-3;
  f.text = sim::format_seconds(f.value);
  f.unit = "s";
  f.kind = scenario::FigureKind::measured;
  f.source = where;
  f.detail = r.variant + ", median of " + std::to_string(r.timed_runs) + " timed runs";
  return f;
}

scenario::Figure sustained_run_figure(const scenario::SustainedRun& r, const std::string& where) {
  scenario::Figure f;
  f.name = "gpu.sustained." + r.variant + ".ms";
  f.value = r.median_ms * 1e-3;
  f.text = sim::format_seconds(f.value);
  f.unit = "s";
  f.kind = scenario::FigureKind::measured;
  f.source = where;
  f.detail = r.variant +
             ", median over 1-2 s of back-to-back launches (tilesim-bench "
             "--repeats 4000 --max-seconds 2), NVML sampling the clock and power";
  return f;
}

int StepText::footnote(const std::string& name) const {
  for (std::size_t i = 0; i < figures.size(); ++i)
    if (figures[i].name == name) return static_cast<int>(i) + 1;
  return 0;
}

const scenario::Figure* StepText::find(const std::string& name) const {
  const int i = footnote(name);
  return i ? &figures[static_cast<std::size_t>(i - 1)] : nullptr;
}

std::string StepText::shown(const std::string& text) const {
  std::string out;
  std::vector<scenario::TextSegment> segs;
  try {
    segs = scenario::split_lesson_text(text);
  } catch (const scenario::ScenarioError&) {
    return text;
  }
  for (const auto& s : segs) {
    if (s.part == scenario::TextPart::figure) {
      const auto* f = find(s.text);
      out += f ? f->text : "?";
    } else {
      out += s.text;
    }
  }
  return out;
}

StepText resolve_step_text(const scenario::Lesson& l, int step, const scenario::FigureContext& c) {
  StepText out;
  if (step < 0 || step >= static_cast<int>(l.steps.size())) return out;
  std::vector<const std::string*> texts;
  const auto& s = l.steps[static_cast<std::size_t>(step)];
  if (step > 0 && l.steps[static_cast<std::size_t>(step - 1)].question)
    texts.push_back(&l.steps[static_cast<std::size_t>(step - 1)].question->answer);
  if (!s.title.empty()) texts.push_back(&s.title);
  texts.push_back(&s.narration);
  if (s.question) texts.push_back(&s.question->text);
  for (const std::string* t : texts) {
    std::vector<std::string> names;
    try {
      names = scenario::figure_names(*t);
    } catch (const scenario::ScenarioError& e) {
      out.errors.push_back(e.what());
      continue;
    }
    for (const auto& n : names) {
      if (out.footnote(n)) continue;
      try {
        out.figures.push_back(scenario::resolve_figure(n, c));
      } catch (const std::exception& e) {
        if (std::find(out.errors.begin(), out.errors.end(), e.what()) == out.errors.end())
          out.errors.push_back(e.what());
      }
    }
  }
  return out;
}

namespace {
nlohmann::json figure_json(const scenario::Figure& f) {
  return {{"name", f.name},
          {"text", f.text},
          {"value", std::isnan(f.value) ? nlohmann::json(nullptr) : nlohmann::json(f.value)},
          {"unit", f.unit},
          {"kind", f.kind_label()},
          {"source", f.full_source()}};
}
}  // namespace

std::string step_figures_json(const scenario::Lesson& l, int step, const StepText& text,
                              const std::vector<scenario::Figure>& panel_figures) {
  const auto& s = l.steps.at(static_cast<std::size_t>(step));
  nlohmann::json j;
  j["lesson"] = l.name;
  j["lesson_title"] = text.shown(l.title);
  j["step"] = step + 1;
  j["steps"] = l.steps.size();
  j["title"] = text.shown(s.title);
  if (step > 0 && l.steps[static_cast<std::size_t>(step - 1)].question)
    j["answer"] = text.shown(l.steps[static_cast<std::size_t>(step - 1)].question->answer);
  j["narration"] = text.shown(s.narration);
  if (s.question) j["question"] = text.shown(s.question->text);
  nlohmann::json figs = nlohmann::json::array();
  for (const auto& f : text.figures) {
    auto fj = figure_json(f);
    fj["drawn_by"] = "lesson";
    figs.push_back(fj);
  }
  for (const auto& f : panel_figures) {
    auto fj = figure_json(f);
    fj["drawn_by"] = "panel";
    figs.push_back(fj);
  }
  j["figures"] = figs;
  if (!text.errors.empty()) j["errors"] = text.errors;
  return j.dump(2) + "\n";
}

}  // namespace tilesim::app
