// Timeline: records + checkpoints built in one replay; seek = restore the nearest checkpoint at
// or before the target, then replay forward (or just replay forward from where we are).
#include "sim/replay/timeline.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/replay/replay.hpp"

namespace tilesim::sim {
namespace {

// Checkpoint at least this often in events too, so that event overhead alone stays bounded.
constexpr std::int64_t kMaxEventsPerCheckpoint = 1 << 16;

std::int64_t lines_per_run(std::int64_t bytes) {
  return cdiv(bytes, 128);
}

// Line operations of one program's memory steps (aligned runs; an estimate for the budget).
std::int64_t line_ops_per_program(const Problem& p) {
  const std::int64_t e = p.elem_bytes();
  const std::int64_t bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  if (p.kernel() != Kernel::matmul) return 2 * bm * lines_per_run(bn * e);
  const bool bt = p.spec().b_layout == BLayout::transposed;
  const std::int64_t a = bm * lines_per_run(bk * e);
  const std::int64_t b = bt ? bn * lines_per_run(bk * e) : bk * lines_per_run(bn * e);
  return p.k_tiles() * (a + b) + bm * lines_per_run(bn * e);
}

std::string mib(std::int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

// Resident and total sectors of the in-range part of a tile (wrapping ignored: a tile's own
// rectangle). Shapes: the span's (rows, cols) clipped to the matrix.
std::pair<std::int64_t, std::int64_t> tile_sectors(const Problem& p, const L2Cache& l2,
                                                   TileSpan s) {
  s.wrap_rows = s.wrap_cols = false;
  const MatrixShape shape = p.shape(s.operand);
  const std::uint64_t e = static_cast<std::uint64_t>(p.elem_bytes());
  const std::uint64_t base = p.base_address(s.operand);
  const bool along_cols = shape.stride_col == 1;
  const std::int64_t outer_on = along_cols ? s.rows_on() : s.cols_on();
  const std::int64_t inner_on = along_cols ? s.cols_on() : s.rows_on();
  const std::int64_t outer0 = along_cols ? s.row0 : s.col0;
  const std::int64_t inner0 = along_cols ? s.col0 : s.row0;
  const std::uint64_t stride =
      static_cast<std::uint64_t>(along_cols ? shape.stride_row : shape.stride_col);
  std::int64_t resident = 0, total = 0;
  for (std::int64_t i = 0; i < outer_on && inner_on > 0; ++i) {
    const std::uint64_t b =
        base +
        (static_cast<std::uint64_t>(outer0 + i) * stride + static_cast<std::uint64_t>(inner0)) * e;
    const std::uint64_t end = b + static_cast<std::uint64_t>(inner_on) * e;
    resident += l2.resident_sectors(b, end);
    total += static_cast<std::int64_t>((end - 1) / 32 - b / 32 + 1);
  }
  return {resident, total};
}

// The snapshot's input-tile grids: their shapes and one TileView per tile, row-major, from the
// per-tile reuse counters (the engine's layout) and resident(span) -> fraction in L2 now.
template <class Resident>
void fill_input_tiles(Snapshot& s, const Problem& p, const std::vector<TileReuse>& a_reuse,
                      const std::vector<TileReuse>& b_reuse, Resident resident) {
  const auto view = [&](const TileSpan& span, const TileReuse& reuse) {
    TileView v;
    v.resident_fraction = resident(span);
    v.reuse = reuse;
    return v;
  };
  if (p.kernel() == Kernel::matmul) {
    s.a_rows = p.tiles_m(), s.a_cols = p.k_tiles();
    s.b_rows = p.k_tiles(), s.b_cols = p.tiles_n();
    s.a_tiles.reserve(static_cast<std::size_t>(s.a_rows * s.a_cols));
    for (std::int64_t i = 0; i < s.a_rows; ++i)
      for (std::int64_t kk = 0; kk < s.a_cols; ++kk)
        s.a_tiles.push_back(view(step_span(p, StepOp::load_a, {i, 0}, kk),
                                 a_reuse[static_cast<std::size_t>(i * s.a_cols + kk)]));
    s.b_tiles.reserve(static_cast<std::size_t>(s.b_rows * s.b_cols));
    for (std::int64_t kk = 0; kk < s.b_rows; ++kk)
      for (std::int64_t j = 0; j < s.b_cols; ++j)
        s.b_tiles.push_back(view(step_span(p, StepOp::load_b, {0, j}, kk),
                                 b_reuse[static_cast<std::size_t>(kk * s.b_cols + j)]));
  } else {
    s.a_rows = p.tiles_m(), s.a_cols = p.tiles_n();
    for (std::int64_t i = 0; i < s.a_rows; ++i)
      for (std::int64_t j = 0; j < s.a_cols; ++j)
        s.a_tiles.push_back(view(step_span(p, StepOp::load, {i, j}, -1),
                                 a_reuse[static_cast<std::size_t>(i * s.a_cols + j)]));
  }
}

}  // namespace

std::string_view to_string(Granularity g) {
  switch (g) {
    case Granularity::event:
      return "event";
    case Granularity::k_iteration:
      return "k-iteration";
    case Granularity::program:
      return "program";
    case Granularity::wave:
      return "wave";
  }
  return "?";
}

TimelineCost estimate_timeline_cost(const Problem& p, const Machine& m, const Occupancy& /*occ*/,
                                    const TimelineOptions& opt) {
  TimelineCost c;
  c.events = p.programs() * steps_per_program(p);
  c.line_ops = p.programs() * line_ops_per_program(p);
  c.record_bytes = c.events * static_cast<std::int64_t>(sizeof(AccessResult));
  c.checkpoints = 1 + c.line_ops / std::max<std::int64_t>(1, opt.checkpoint_line_ops) +
                  c.events / kMaxEventsPerCheckpoint;
  const std::int64_t lines = std::min<std::int64_t>(
      m.l2_bytes / 128, static_cast<std::int64_t>(p.address_space_bytes() / 128));
  const std::int64_t tiles =
      p.kernel() == Kernel::matmul ? p.k_tiles() * (p.tiles_m() + p.tiles_n()) : p.programs();
  if (opt.order == EventOrderKind::timed)
    c.record_bytes += timed_order_bytes(c.events, p.programs());
  c.checkpoint_bytes = c.checkpoints * (lines * static_cast<std::int64_t>(sizeof(L2LineState)) +
                                        tiles * static_cast<std::int64_t>(sizeof(TileReuse)) +
                                        static_cast<std::int64_t>(sizeof(EngineCheckpoint)));
  return c;
}

namespace {

// Refuses an over-budget timeline before the engine allocates anything (its per-tile counters
// alone can be gigabytes); returns `p` so it can sit in the member initialiser list.
const Problem& check_timeline_cost(const Problem& p, const Machine& m, const Occupancy& occ,
                                   const TimelineOptions& opt) {
  const TimelineCost cost = estimate_timeline_cost(p, m, occ, opt);
  if (cost.total_bytes() > opt.memory_budget_bytes)
    throw TimelineTooLarge(
        "the timeline of this problem needs about " + mib(cost.total_bytes()) + " (" +
        std::to_string(cost.events) + " events x " + std::to_string(sizeof(AccessResult)) +
        " B of records = " + mib(cost.record_bytes) + ", " + std::to_string(cost.checkpoints) +
        " checkpoints = " + mib(cost.checkpoint_bytes) + "), over the budget of " +
        mib(opt.memory_budget_bytes) +
        ": use larger blocks or a smaller problem (`tilesim-cli run` gives the counters of any "
        "size)");
  return p;
}

}  // namespace

Timeline::Timeline(const Problem& p, const Machine& m, const Occupancy& occ,
                   const TimelineOptions& opt)
    // A timed timeline feeds its engine event by event (Engine::apply): its rounds go unused.
    : m_engine(check_timeline_cost(p, m, occ, opt), m, occ.programs_per_sm,
               is_round_order(opt.order) ? opt.order : EventOrderKind::lockstep),
      m_occupancy(occ),
      m_checkpoint_line_ops(opt.checkpoint_line_ops) {
  m_checkpoints.push_back(m_engine.save());
  if (opt.order == EventOrderKind::timed)
    build_timed(opt);
  else
    build_rounds(opt);
  if (opt.progress) opt.progress(1.0);
  seek(0);
}

void Timeline::maybe_checkpoint(const Engine& e) {
  if (e.done()) return;
  if (e.line_ops() - m_ops_at_checkpoint >= m_checkpoint_line_ops ||
      e.position() - m_events_at_checkpoint >= kMaxEventsPerCheckpoint) {
    m_checkpoints.push_back(e.save());
    m_ops_at_checkpoint = e.line_ops();
    m_events_at_checkpoint = e.position();
  }
}

void Timeline::build_rounds(const TimelineOptions& opt) {
  m_order = std::make_shared<RoundOrder>(problem(), machine(), m_engine.slots(), opt.order);
  const std::int64_t total = m_engine.total_events();
  m_records.resize(static_cast<std::size_t>(total));
  constexpr std::int64_t kChunk = 64;
  std::int64_t next_report = 0;
  while (!m_engine.done()) {
    if (opt.cancel && opt.cancel->load(std::memory_order_relaxed))
      throw std::runtime_error("cancelled");
    const std::int64_t pos = m_engine.position();
    m_engine.run(kChunk, m_records.data() + pos);
    maybe_checkpoint(m_engine);
    if (opt.progress && m_engine.position() >= next_report) {
      opt.progress(static_cast<double>(m_engine.position()) / static_cast<double>(total));
      next_report = m_engine.position() + std::max<std::int64_t>(1, total / 256);
    }
  }
  m_final = m_engine.counters();
  m_timing = predicted_timing(problem(), machine(), m_occupancy, opt.timing, opt.cancel);
}

void Timeline::build_timed(const TimelineOptions& opt) {
  std::vector<TimedEvent> events;
  TimedOptions t;
  t.timing = opt.timing;
  t.events = &events;
  t.records = &m_records;
  t.progress = opt.progress;
  t.cancel = opt.cancel;
  t.after_event = [this](const Engine& e) { maybe_checkpoint(e); };
  TimedResult r = run_timed(problem(), machine(), m_occupancy, t);
  m_final = r.counters;
  m_timing = r.timing;
  m_order = std::make_shared<TimedOrder>(problem(), machine(), m_engine.slots(), std::move(events),
                                         std::move(r.programs), r.timing.kernel_ps);
}

void Timeline::advance(std::int64_t target) {
  if (!m_order->timed()) {
    m_engine.run(target - position());
    return;
  }
  while (position() < target) {
    const TimedEvent e = m_order->timed_event(position());
    m_engine.apply(e.pid, e.step);
  }
}

std::int64_t Timeline::memory_bytes() const {
  std::int64_t b = static_cast<std::int64_t>(m_records.capacity() * sizeof(AccessResult));
  for (const auto& c : m_checkpoints) b += c.bytes();
  if (m_order && m_order->timed())
    b += timed_order_bytes(events(), static_cast<std::int64_t>(m_order->programs().size()));
  return b;
}

void Timeline::seek(std::int64_t target) {
  target = std::clamp<std::int64_t>(target, 0, events());
  if (target == position() && m_snapshot) return;
  m_snapshot.reset();
  // Replay to the event before the target first (its counters are the snapshot's
  // counters_before), from the latest checkpoint at or before it, then one event more.
  const std::int64_t before = std::max<std::int64_t>(0, target - 1);
  auto it =
      std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), before,
                       [](std::int64_t t, const EngineCheckpoint& c) { return t < c.position; });
  const EngineCheckpoint& c = *std::prev(it);
  if (!(position() >= c.position && position() <= before)) m_engine.restore(c);
  advance(before);
  m_counters_before = m_engine.counters();
  advance(target);
}

std::int64_t Timeline::neighbour(Granularity g, int direction) const {
  const std::int64_t pos = position(), total = events();
  if (g == Granularity::event)
    return std::clamp<std::int64_t>(pos + (direction >= 0 ? 1 : -1), 0, total);
  if (g == Granularity::wave) {
    const std::int64_t W = m_engine.waves();
    const auto begin = [&](std::int64_t w) {
      return w >= W ? total : m_order->event_of(w * m_engine.slots(), 0);
    };
    if (direction >= 0) {
      for (std::int64_t w = 0; w <= W; ++w)
        if (begin(w) > pos) return begin(w);
      return total;
    }
    for (std::int64_t w = W; w >= 0; --w)
      if (begin(w) < pos) return begin(w);
    return 0;
  }
  if (g == Granularity::program) return m_order->next_program_end(pos, direction);
  return m_order->next_k_boundary(pos, direction);
}

const Snapshot& Timeline::snapshot() {
  if (!m_snapshot) build_snapshot();
  return *m_snapshot;
}

void Timeline::build_snapshot() {
  const Problem& p = problem();
  Snapshot s;
  s.position = position();
  s.events = events();
  s.counters = m_engine.counters();
  s.counters_before = s.position > 0 ? m_counters_before : s.counters;
  s.l2_resident_lines = m_engine.l2().resident_lines();
  s.time_ps = m_order->time_ps(s.position);
  if (s.position < s.events) {
    s.wave = m_order->event_info(s.position).wave;
    s.residents = m_order->residents(s.position);
  } else {
    s.wave = m_engine.waves();
  }
  fill_input_tiles(s, p, m_engine.a_reuse(), m_engine.b_reuse(), [&](const TileSpan& span) {
    const auto [resident, total] = tile_sectors(p, m_engine.l2(), span);
    return total ? static_cast<float>(resident) / static_cast<float>(total) : 0.f;
  });
  if (s.position > 0) {
    CurrentEvent c;
    c.info = m_order->event_info(s.position - 1);
    c.l2 = m_records[static_cast<std::size_t>(s.position - 1)];
    s.current = c;
  }
  m_snapshot = std::move(s);
}

Snapshot end_of_run_snapshot(const Problem& p, const ReplayResult& r) {
  Snapshot s;
  s.position = s.events = p.programs() * steps_per_program(p);
  s.wave = r.waves;
  s.counters = s.counters_before = r.counters;
  fill_input_tiles(s, p, r.a_reuse, r.b_reuse, [](const TileSpan&) { return 0.f; });
  return s;
}

}  // namespace tilesim::sim
