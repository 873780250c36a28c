// Running a lesson (see lesson_run.hpp): step positions resolved in the timeline's event order,
// highlight checks against the problem, and the step-to-step animation on the uniform clock.
#include "app/core/lesson_run.hpp"

#include <algorithm>

#include "app/core/broadcast_view.hpp"
#include "sim/program/listing.hpp"
#include "sim/program/program_trace.hpp"

namespace tilesim::app {
namespace {

// Events a step change animates one by one; a longer jump animates only its last event.
constexpr std::int64_t kMaxAnimatedEvents = 24;

const char* matrix_letter(sim::Operand m) {
  return m == sim::Operand::a ? "A" : m == sim::Operand::b ? "B" : "C";
}

}  // namespace

LessonRun open_lesson(const std::string& name_or_path) {
  LessonRun run;
  run.lesson = scenario::load_lesson(scenario::find_lesson(name_or_path));
  run.bare_numbers = scenario::lesson_bare_numbers(run.lesson);
  run.index = scenario::list_lessons(scenario::assets_dir() / "lessons");
  return run;
}

ResolvedPosition resolve_position(const sim::Problem& p, const sim::EventOrder* order,
                                  const scenario::LessonPosition& pos) {
  ResolvedPosition r;
  const std::int64_t steps = sim::steps_per_program(p);
  const std::int64_t events = p.programs() * steps;
  if (pos.start) return r;
  if (pos.end) {
    r.position = events;
    return r;
  }
  if (pos.event) {
    if (*pos.event >= events) {
      r.error = "event " + std::to_string(*pos.event) + " is past the last event (" +
                std::to_string(events - 1) + ", counting from 0)";
      return r;
    }
    r.position = *pos.event + 1;
    return r;
  }
  const std::int64_t pid = pos.pid.value_or(0);
  if (pid >= p.programs()) {
    r.error = "pid " + std::to_string(pid) + " does not exist: pids 0.." +
              std::to_string(p.programs() - 1);
    return r;
  }
  std::int64_t step = -1;
  if (pos.step) {
    step = *pos.step;
    if (step >= steps) {
      r.error = "step " + std::to_string(step) + " does not exist: steps 0.." +
                std::to_string(steps - 1) + " per program";
      return r;
    }
  } else {
    for (std::int64_t s = 0; s < steps && step < 0; ++s) {
      std::int64_t k = -1;
      if (sim::step_op(p, s, &k) == *pos.op && (!pos.k || *pos.k == k)) step = s;
    }
    if (step < 0) {
      r.error = std::string("no step ") + std::string(sim::to_string(*pos.op)) +
                (pos.k ? " at k = " + std::to_string(*pos.k) : "") + " in this kernel";
      return r;
    }
  }
  if (!order) {
    r.error =
        "this problem has no timeline to step through (only the end of the run): a "
        "position names the start or the end";
    return r;
  }
  r.position = order->event_of(pid, step) + 1;
  r.cursor = CursorPos{pid, step};
  return r;
}

std::vector<scenario::LessonEntry>::const_iterator first_screen_lesson(
    const std::vector<scenario::LessonEntry>& all) {
  const auto good = [](const scenario::LessonEntry& l) { return l.error.empty(); };
  const auto hook = std::find_if(all.begin(), all.end(), [&](const auto& l) {
    return good(l) && l.path.stem() == kFirstScreenLesson;
  });
  return hook != all.end() ? hook : std::find_if(all.begin(), all.end(), good);
}

std::string tile_mark(sim::Operand m, std::int64_t row, std::int64_t col) {
  return std::string("tile:") + matrix_letter(m) + ":" + std::to_string(row) + ":" +
         std::to_string(col);
}

std::string lane_mark(int row, int col) {
  return "lane:" + std::to_string(row) + ":" + std::to_string(col);
}

std::set<std::string> highlight_marks(const scenario::LessonHighlight& h) {
  std::set<std::string> out;
  for (const auto& t : h.tiles) out.insert(tile_mark(t.matrix, t.row, t.col));
  for (auto pid : h.pids) out.insert("pid:" + std::to_string(pid));
  for (int l : h.code_lines) out.insert("code:" + std::to_string(l));
  for (const auto& l : h.lanes) out.insert(lane_mark(l.row, l.col));
  for (const auto& r : h.table_rows) out.insert("row:" + r);
  return out;
}

std::vector<std::string> missing_marks(const LessonRun& run) {
  std::vector<std::string> out;
  if (run.step < 0) return out;
  const auto& step = run.lesson.steps[run.step];
  for (const auto& k : highlight_marks(step.highlight))
    if (!run.drawn.count(k)) out.push_back(k);
  // A hidden row the view has no row for hides nothing: the step would answer its own question.
  for (const auto& r : step.hide_rows)
    if (!run.drawn.count("hidden:" + r)) out.push_back("hidden:" + r);
  return out;
}

std::vector<std::string> check_highlights(const scenario::LessonHighlight& h, const sim::Problem& p,
                                          CursorPos at) {
  std::vector<std::string> bad;
  const bool mm = p.kernel() == sim::Kernel::matmul;
  for (const auto& t : h.tiles) {
    std::int64_t rows = p.tiles_m(), cols = p.tiles_n();
    if (t.matrix == sim::Operand::a && mm) cols = p.k_tiles();
    if (t.matrix == sim::Operand::b) {
      if (!mm) {
        bad.push_back("tile of B: this kernel has no B");
        continue;
      }
      rows = p.k_tiles();
    }
    if (t.matrix == sim::Operand::c && p.kernel() == sim::Kernel::transpose) std::swap(rows, cols);
    if (t.row >= rows || t.col >= cols)
      bad.push_back(tile_mark(t.matrix, t.row, t.col) + " is outside the " + std::to_string(rows) +
                    " x " + std::to_string(cols) + " tiles");
  }
  for (auto pid : h.pids)
    if (pid >= p.programs())
      bad.push_back("pid " + std::to_string(pid) + " does not exist (" +
                    std::to_string(p.programs()) + " programs)");
  const auto& listing_lines = p.plan().lines;
  for (int l : h.code_lines)
    if (l > static_cast<int>(listing_lines.size()))
      bad.push_back("code line " + std::to_string(l) + " is past the listing's " +
                    std::to_string(listing_lines.size()) + " lines");
  if (!h.lanes.empty()) {
    // The broadcast inspector shows this step's access (a dot shows its load_b, ...).
    const sim::Step s = sim::program_step(p, at.pid, inspected_step(p, at.step));
    if (!s.span)
      bad.push_back("lanes: the step shown (" + std::string(sim::to_string(s.op)) +
                    ") touches no memory");
    else
      for (const auto& l : h.lanes)
        if (l.row >= s.span->rows || l.col >= s.span->cols)
          bad.push_back(lane_mark(l.row, l.col) + " is outside the " +
                        std::to_string(s.span->rows) + " x " + std::to_string(s.span->cols) +
                        " tile");
  }
  return bad;
}

PanelId lesson_view(const scenario::LessonStep& s) {
  return parse_panel(s.view).value_or(PanelId::launch_grid);
}

double lesson_update(AppModel& m, LessonRun& run, PanelId& tab, double dt, bool animate,
                     double seconds_per_event) {
  const UniformClock clock;
  const int n = static_cast<int>(run.lesson.steps.size());
  run.requested = std::clamp(run.requested, 0, n - 1);
  if (run.requested != run.step) {
    const auto& s = run.lesson.steps[run.requested];
    // The problem in force at the requested step: the last step at or before it naming one.
    const scenario::Scenario* sc = &run.lesson.scenario;
    for (int i = 0; i <= run.requested; ++i)
      if (run.lesson.steps[i].scenario) sc = &*run.lesson.steps[i].scenario;
    const bool was_waiting = run.waiting;
    const bool same_problem = (run.step >= 0 || was_waiting) && m.scenario == *sc;
    // The lesson replays in the app's event order (timed unless --event-order says otherwise),
    // as the same scenario opened directly and tilesim-cli run do.
    if (!same_problem) m = make_model(*sc, {}, m.event_order);
    // Positions are events of that order: resolved once the timeline is built.
    const auto frame = m.engine->frame();
    const EnginePhase phase = m.engine->phase();
    const bool built = (frame && frame->order) || phase == EnginePhase::counters_only ||
                       phase == EnginePhase::failed;
    run.waiting = !built;
    if (!built) return 1.0;
    tab = lesson_view(s);
    const auto r = resolve_position(m.problem, frame ? frame->order.get() : nullptr, s.position);
    run.expected = r.cursor;
    run.error = r.error;
    // A failed build has no timeline: say why it failed, not that the problem has none.
    if (phase == EnginePhase::failed) run.error = "the replay failed: " + m.engine->message();
    if (run.error.empty()) {
      const auto bad = check_highlights(s.highlight, m.problem, r.cursor.value_or(CursorPos{}));
      for (const auto& b : bad) run.error += (run.error.empty() ? "" : "; ") + b;
    }
    const std::int64_t from = m.position();
    run.transition.reset();
    if (animate && r.position > 0) {
      const std::int64_t first = same_problem && !was_waiting && r.position > from &&
                                         r.position - from <= kMaxAnimatedEvents
                                     ? from
                                     : r.position - 1;
      run.transition = LessonTransition{clock.start(first), clock.start(r.position), r.position};
      m.engine->seek(first + 1);
    } else {
      m.engine->seek(r.position);
    }
    m.playing = false;
    run.step = run.requested;
  }
  if (!run.transition) return 1.0;
  auto& t = *run.transition;
  t.t += dt / std::max(seconds_per_event, 1e-3);
  if (t.t >= t.t_end) {
    m.engine->seek(t.target);
    run.transition.reset();
    return 1.0;
  }
  const AnimPoint at = anim_point(clock, t.t);
  if (at.position != m.position()) m.engine->seek(at.position);
  return at.fraction;
}

}  // namespace tilesim::app
