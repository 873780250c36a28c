// A lesson's figures (see lesson_figures.hpp). The names and their kinds have one home here:
// figure_name_error (the load-time check) and resolve_figure read the same tables.
#include "scenario/lesson_figures.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "scenario/figure_values.hpp"
#include "scenario/lesson_text.hpp"
#include "scenario/resolve.hpp"
#include "scenario/run_report.hpp"
#include "sim/base/format.hpp"
#include "sim/machine/parameters.hpp"
#include "sim/memory/footprint.hpp"
#include "sim/replay/replay.hpp"

namespace tilesim::scenario {
namespace {

using namespace figures;

// run.METRIC: the key of `tilesim-cli run --json` it reads and how it is shown.
struct Metric {
  const char* name;
  const char* json_key;  // "" for dram_bytes (read + write)
  Unit unit;
};
const Metric kRunMetrics[] = {
    {"time", "predicted_time_s", Unit::seconds},
    {"dram_bytes", "", Unit::bytes},
    {"dram_read_bytes", "dram_read_bytes", Unit::bytes},
    {"dram_write_bytes", "dram_write_bytes", Unit::bytes},
    {"l2_hit_rate", "l2_hit_rate", Unit::fraction},
    {"tflops", "tflops", Unit::tflops},
    {"bound", "bound", Unit::text},
    {"math_path", "math_path", Unit::text},
    {"smem_layout", "smem_layout", Unit::text},
    {"occupancy", "occupancy", Unit::text},
    {"programs_per_sm", "programs_per_sm", Unit::count},
    {"waves", "waves", Unit::count},
    {"tile_loads", "tile_loads", Unit::count},
    {"register_bytes", "register_bytes", Unit::bytes},
};
const char* const kNowMetrics[] = {"dram_bytes", "l2_hit_rate", "time", "events"};
const char* const kProblemFields[] = {
    "m",       "n",       "k",           "block_m",     "block_n",      "block_k",
    "tiles_m", "tiles_n", "k_tiles",     "programs",    "group_size_m", "num_warps",
    "stages",  "dtype",   "dtype_bytes", "input_bytes", "output_bytes", "shape"};
const char* const kMachineAliases[] = {
    "name",        "sm_count",         "l2_bytes",      "l2_effective_bytes",
    "smem_per_sm", "registers_per_sm", "dram_bandwidth"};
const char* const kMeasuredFields[] = {"ms", "baseline_ms", "tflops"};

template <class Range>
bool in(const Range& r, std::string_view s) {
  return std::any_of(std::begin(r), std::end(r), [&](const auto& x) { return s == x; });
}
template <class Range>
std::string list(const Range& r) {
  std::string out;
  for (const auto& x : r) out += (out.empty() ? "" : " | ") + std::string(x);
  return out;
}
std::string run_metric_list(bool numeric_only) {
  std::string out;
  for (const auto& m : kRunMetrics)
    if (!numeric_only || m.unit != Unit::text)
      out += (out.empty() ? "" : " | ") + std::string(m.name);
  return out;
}
const Metric* find_run_metric(std::string_view name) {
  for (const auto& m : kRunMetrics)
    if (name == m.name) return &m;
  return nullptr;
}

bool known_filter(std::string_view f) {
  const auto d = dims(f);
  if (!d.empty() && d.size() <= 3) return true;
  return sim::parse_dtype(f) || sim::parse_launch_order(f) || f == "b-row-major" ||
         f == "b-transposed";
}

std::string engine_source(const FigureContext& c) {
  return std::string("timed engine, ") + c.machine->name + " preset, " +
         std::string(sim::to_string(c.event_order)) + " event order";
}

Figure run_figure(std::string_view name, const Metric& metric, const sim::Problem& p,
                  const sim::Machine& m, const sim::ReplayResult& r, const std::string& source) {
  const nlohmann::json j = replay_json(p, m, r);
  if (metric.unit == Unit::text)
    return text_figure(std::string(name), j.at(metric.json_key).get<std::string>(),
                       FigureKind::predicted, source);
  const double v = *metric.json_key ? j.at(metric.json_key).get<double>()
                                    : j.at("dram_read_bytes").get<double>() +
                                          j.at("dram_write_bytes").get<double>();
  return numeric(std::string(name), v, metric.unit, FigureKind::predicted, source);
}

Figure side_figure(std::string_view name, const FigureContext& c, std::string_view metric,
                   std::string_view side) {
  const Metric* m = find_run_metric(metric);
  if (!m || m->unit == Unit::text)
    fail(name, "unknown compare metric \"" + std::string(metric) + "\": " + run_metric_list(true));
  if (!c.run || !c.problem || !c.machine) fail(name, "the step has no whole-run replay");
  if (side != "a" && (!c.compare_run || !c.compare_problem))
    fail(name, "the step's scenario has no compare order (\"compare_order\")");
  const std::string na(sim::to_string(c.problem->order()));
  const std::string nb =
      c.compare_problem ? std::string(sim::to_string(c.compare_problem->order())) : "";
  if (side == "a")
    return with_detail(run_figure(name, *m, *c.problem, *c.machine, *c.run, engine_source(c)),
                       na + " launch order, whole run");
  if (side == "b")
    return with_detail(
        run_figure(name, *m, *c.compare_problem, *c.machine, *c.compare_run, engine_source(c)),
        nb + " launch order, whole run");
  const Figure a = run_figure(name, *m, *c.problem, *c.machine, *c.run, "");
  const Figure b = run_figure(name, *m, *c.compare_problem, *c.machine, *c.compare_run, "");
  Figure f;
  f.name = std::string(name);
  f.value = a.value > 0 ? b.value / a.value : std::nan("");
  f.text = sim::format_ratio(f.value);
  f.unit = "x";
  f.kind = FigureKind::predicted;
  f.source = engine_source(c);
  f.detail = nb + " / " + na + ", whole run";
  return f;
}

}  // namespace

std::string_view to_string(FigureKind k) {
  switch (k) {
    case FigureKind::predicted:
      return "predicted";
    case FigureKind::measured:
      return "measured";
    case FigureKind::quoted:
      return "quoted";
    case FigureKind::computed:
      return "computed";
    case FigureKind::datasheet:
      return "datasheet";
  }
  return "?";
}

std::string Figure::full_source() const {
  return detail.empty() ? source : source + ", " + detail;
}

std::string Figure::kind_label() const {
  std::string s(to_string(kind));
  if (kind_b && *kind_b != kind) s += " / " + std::string(to_string(*kind_b));
  return s;
}

std::optional<std::string> figure_name_error(std::string_view name) {
  if (const auto slash = name.find(" / "); slash != std::string_view::npos) {
    if (auto e = figure_name_error(name.substr(0, slash))) return e;
    return figure_name_error(name.substr(slash + 3));
  }
  const auto parts = split(name, '.');
  const std::string& ns = parts[0];
  auto need = [&](std::size_t n, const char* form) -> std::optional<std::string> {
    if (parts.size() != n) return std::string("the form is ") + form;
    return std::nullopt;
  };
  if (ns == "run") {
    if (auto e = need(2, "run.METRIC")) return e;
    if (!find_run_metric(parts[1]))
      return "unknown metric \"" + parts[1] + "\": " + run_metric_list(false);
  } else if (ns == "compare") {
    if (auto e = need(3, "compare.METRIC.SIDE")) return e;
    const Metric* m = find_run_metric(parts[1]);
    if (!m || m->unit == Unit::text)
      return "unknown compare metric \"" + parts[1] + "\": " + run_metric_list(true);
    if (parts[2] != "a" && parts[2] != "b" && parts[2] != "ratio")
      return "unknown side \"" + parts[2] + "\": a | b | ratio";
  } else if (ns == "now") {
    if (auto e = need(2, "now.METRIC")) return e;
    if (!in(kNowMetrics, parts[1]))
      return "unknown metric \"" + parts[1] + "\": " + list(kNowMetrics);
  } else if (ns == "footprint") {
    if (auto e = need(3, "footprint.SIDE.tiles or footprint.SIDE.bytes")) return e;
    if (parts[1] != "a" && parts[1] != "b") return "unknown side \"" + parts[1] + "\": a | b";
    if (parts[2] != "tiles" && parts[2] != "bytes")
      return "unknown field \"" + parts[2] + "\": tiles | bytes";
  } else if (ns == "problem") {
    if (auto e = need(2, "problem.FIELD")) return e;
    if (!in(kProblemFields, parts[1]))
      return "unknown field \"" + parts[1] + "\": " + list(kProblemFields);
  } else if (ns == "machine") {
    if (auto e = need(2, "machine.FIELD")) return e;
    if (!in(kMachineAliases, parts[1]) && !sim::find_machine_parameter(parts[1]))
      return "unknown field \"" + parts[1] + "\": " + list(kMachineAliases) +
             ", or a field of tilesim-cli machine-params";
  } else if (ns == "measured") {
    if (parts.size() < 4) return std::string("the form is measured.GPU.VARIANT.FILTER...FIELD");
    if (parts[1] != "h100" && parts[1] != "h200")
      return "unknown GPU \"" + parts[1] + "\": h100 | h200";
    if (!in(kMeasuredFields, parts.back()))
      return "unknown field \"" + parts.back() + "\": " + list(kMeasuredFields);
    for (std::size_t i = 3; i + 1 < parts.size(); ++i)
      if (!known_filter(parts[i]))
        return "unknown filter \"" + parts[i] +
               "\": a shape (4096, 8192x4096x6144), a dtype (fp16, bf16, fp32), a launch order "
               "(row-major, column-major, grouped), a block (32x32, 128x256x64) or b-row-major | "
               "b-transposed";
  } else if (ns == "quote") {
    if (parts.size() < 3 || !all_digits(parts[1]))
      return std::string("the form is quote.SEED.ID (quote.003.t4_plain_ms)");
  } else {
    return "unknown namespace \"" + ns +
           "\": run | compare | now | footprint | problem | machine | measured | quote";
  }
  for (const auto& p : parts)
    if (p.empty()) return std::string("an empty part between points");
  return std::nullopt;
}

Figure compare_figure(const FigureContext& c, std::string_view metric, std::string_view side) {
  const std::string name = "compare." + std::string(metric) + "." + std::string(side);
  return side_figure(name, c, metric, side);
}

Figure resolve_figure(std::string_view name, const FigureContext& c) {
  if (auto e = figure_name_error(name)) fail(name, *e);
  if (const auto slash = name.find(" / "); slash != std::string_view::npos) {
    const Figure x = resolve_figure(name.substr(0, slash), c);
    const Figure y = resolve_figure(name.substr(slash + 3), c);
    if (std::isnan(x.value) || std::isnan(y.value) || x.unit != y.unit)
      fail(name, "a ratio needs two numbers of one unit (" + x.text + " is " + x.unit + ", " +
                     y.text + " is " + y.unit + ")");
    Figure f;
    f.name = std::string(name);
    f.value = y.value != 0 ? x.value / y.value : std::nan("");
    f.text = sim::format_ratio(f.value);
    f.unit = "x";
    f.kind = x.kind;
    f.kind_b = y.kind;
    f.source = x.source == y.source ? x.source : x.source + "; " + y.source;
    f.detail = x.detail == y.detail ? x.detail : x.detail + " / " + y.detail;
    return f;
  }
  const auto parts = split(name, '.');
  const std::string& ns = parts[0];
  if (ns == "quote") {
    const std::string id(name.substr(6));
    const Quote* q = c.quotes ? c.quotes->find(id) : nullptr;
    if (!q)
      fail(name, "no quote \"" + id + "\" in " + (c.quotes ? c.quotes->source : "quotes.json"));
    Figure f = text_figure(std::string(name), q->text, FigureKind::quoted, "seed " + q->seed);
    f.detail = "the seed's words: " + q->excerpt;
    f.unit = q->unit;
    if (q->value) f.value = *q->value;
    return f;
  }
  if (ns == "measured") return measured_figure(name, parts, c);
  if (!c.problem || !c.machine) fail(name, "the step has no problem");
  if (ns == "problem") return problem_figure(name, parts[1], *c.problem);
  if (ns == "machine") return machine_figure(name, parts[1], *c.machine);
  if (ns == "run") {
    if (!c.run) fail(name, "the step has no whole-run replay");
    return with_detail(
        run_figure(name, *find_run_metric(parts[1]), *c.problem, *c.machine, *c.run,
                   engine_source(c)),
        std::string(sim::to_string(c.problem->order())) + " launch order, whole run");
  }
  if (ns == "compare") return side_figure(name, c, parts[1], parts[2]);
  if (ns == "footprint") {
    const sim::Problem* p = parts[1] == "a" ? c.problem : c.compare_problem;
    if (!p) fail(name, "the step's scenario has no compare order (\"compare_order\")");
    const auto fp = sim::footprint(*p, std::max<std::int64_t>(0, c.programs_started));
    const std::string detail = "the distinct input tiles of pids 0.." +
                               std::to_string(c.programs_started - 1) + ", " +
                               std::string(sim::to_string(p->order())) + " launch order";
    if (parts[2] == "tiles")
      return with_detail(numeric(std::string(name), double(fp.tiles), Unit::count,
                                 FigureKind::computed, "from the problem"),
                         detail);
    return with_detail(numeric(std::string(name), double(fp.bytes), Unit::bytes,
                               FigureKind::computed, "from the problem"),
                       detail);
  }
  // now.*
  if (!c.now) fail(name, "the step has no timeline position (a problem too large to step)");
  const std::string src = engine_source(c);
  const std::string so_far = std::string(sim::to_string(c.problem->order())) +
                             " launch order, so far (at the step's position)";
  const auto& k = c.now->counters;
  if (parts[1] == "dram_bytes")
    return with_detail(
        numeric(std::string(name), double(k.dram_bytes()), Unit::bytes, FigureKind::predicted, src),
        so_far);
  if (parts[1] == "l2_hit_rate")
    return with_detail(
        numeric(std::string(name), k.l2_hit_rate(), Unit::fraction, FigureKind::predicted, src),
        so_far);
  if (parts[1] == "time")
    return with_detail(numeric(std::string(name), double(c.now->time_ps) * 1e-12, Unit::seconds,
                               FigureKind::predicted, src),
                       so_far);
  return with_detail(
      numeric(std::string(name), double(c.now->position), Unit::count, FigureKind::predicted, src),
      so_far);
}

const std::vector<BenchFile>& bundled_bench_files() {
  static const std::vector<BenchFile> files = [] {
    std::vector<BenchFile> out;
    for (const char* gpu : {"h100", "h200"}) {
      const auto path = assets_dir() / "measured" / ("bench_" + std::string(gpu) + ".json");
      std::error_code ec;
      if (std::filesystem::is_regular_file(path, ec))
        out.push_back({gpu, path, load_bench_file(path)});
    }
    return out;
  }();
  return files;
}

FigureContext StepReplays::context(const std::vector<BenchFile>* bench,
                                   const Quotes* quotes) const {
  FigureContext c;
  c.problem = &problem;
  c.machine = &machine;
  c.event_order = order;
  c.run = &run;
  c.compare_problem = compare_problem ? &*compare_problem : nullptr;
  c.compare_run = compare_run ? &*compare_run : nullptr;
  c.programs_started = problem.programs();
  c.bench = bench;
  c.quotes = quotes;
  return c;
}

StepReplays replay_step(const Scenario& s, sim::EventOrderKind order) {
  const Resolved r = resolve(s);
  if (r.launch_error) throw *r.launch_error;
  StepReplays out{r.problem, std::nullopt, r.machine, {}, std::nullopt, order};
  sim::ReplayOptions opt;
  opt.order = order;
  out.run = sim::replay(r.problem, r.machine, r.occupancy, opt);
  if (s.compare_order) {
    sim::ProblemSpec spec = r.problem.spec();
    spec.order = *s.compare_order;
    out.compare_problem.emplace(spec);
    out.compare_run = sim::replay(*out.compare_problem, r.machine, r.occupancy, opt);
  }
  return out;
}

}  // namespace tilesim::scenario
