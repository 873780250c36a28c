// Timeline: records + checkpoints built in one replay; seek = restore the nearest checkpoint at
// or before the target, then replay forward (or just replay forward from where we are).
#include "sim/timeline.hpp"

#include <algorithm>
#include <cstdio>

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
    : m_engine(check_timeline_cost(p, m, occ, opt), m, occ.programs_per_sm, opt.schedule),
      m_occupancy(occ) {
  const std::int64_t total = m_engine.total_events();
  m_records.resize(static_cast<std::size_t>(total));
  m_checkpoints.push_back(m_engine.save());
  std::int64_t ops_at_checkpoint = 0, events_at_checkpoint = 0;
  constexpr std::int64_t kChunk = 64;
  std::int64_t next_report = 0;
  while (!m_engine.done()) {
    if (opt.cancel && opt.cancel->load(std::memory_order_relaxed))
      throw std::runtime_error("cancelled");
    const std::int64_t pos = m_engine.position();
    m_engine.run(kChunk, m_records.data() + pos);
    if (m_engine.done()) break;
    if (m_engine.line_ops() - ops_at_checkpoint >= opt.checkpoint_line_ops ||
        m_engine.position() - events_at_checkpoint >= kMaxEventsPerCheckpoint) {
      m_checkpoints.push_back(m_engine.save());
      ops_at_checkpoint = m_engine.line_ops();
      events_at_checkpoint = m_engine.position();
    }
    if (opt.progress && m_engine.position() >= next_report) {
      opt.progress(static_cast<double>(m_engine.position()) / static_cast<double>(total));
      next_report = m_engine.position() + std::max<std::int64_t>(1, total / 256);
    }
  }
  m_final = m_engine.counters();
  if (opt.progress) opt.progress(1.0);
  seek(0);
}

std::int64_t Timeline::memory_bytes() const {
  std::int64_t b = static_cast<std::int64_t>(m_records.capacity() * sizeof(AccessResult));
  for (const auto& c : m_checkpoints) b += c.bytes();
  return b;
}

void Timeline::seek(std::int64_t target) {
  target = std::clamp<std::int64_t>(target, 0, events());
  if (target == position() && m_snapshot) return;
  m_snapshot.reset();
  // Latest checkpoint at or before the target.
  auto it =
      std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), target,
                       [](std::int64_t t, const EngineCheckpoint& c) { return t < c.position; });
  const EngineCheckpoint& c = *std::prev(it);
  if (!(position() >= c.position && position() <= target)) m_engine.restore(c);
  m_engine.run(target - position());
}

std::int64_t Timeline::neighbour(Granularity g, int direction) const {
  const std::int64_t pos = position(), total = events();
  if (g == Granularity::event)
    return std::clamp<std::int64_t>(pos + (direction >= 0 ? 1 : -1), 0, total);
  const SlotSchedule& sc = m_engine.schedule();
  const std::int64_t T = m_engine.steps_per_program(), R = sc.rounds();
  if (g == Granularity::wave) {
    const std::int64_t W = m_engine.waves();
    if (direction >= 0) {
      for (std::int64_t w = 0; w <= W; ++w)
        if (m_engine.wave_begin(w) > pos) return m_engine.wave_begin(w);
      return total;
    }
    for (std::int64_t w = W; w >= 0; --w)
      if (m_engine.wave_begin(w) < pos) return m_engine.wave_begin(w);
    return 0;
  }
  // Boundaries inside round r, ascending (at most a few; every round has an active slot).
  const auto boundaries = [&](std::int64_t r, std::vector<std::int64_t>* out) {
    out->clear();
    const std::int64_t b = sc.round_begin(r);
    if (g == Granularity::program) {
      // Positions just after a program's last step: slots whose step in round r is T - 1.
      const RoundSlots a = sc.active(r);
      for (std::int64_t i = 0; i < a.count(); ++i)
        if (sc.step(a.at(i), r) == T - 1) out->push_back(b + i + 1);
      return;
    }
    std::int64_t k = -1;
    const StepOp op = step_op(problem(), r % T, &k);  // slot 0 starts at round 0
    if (problem().kernel() != Kernel::matmul || op == StepOp::map || op == StepOp::load_a ||
        op == StepOp::store)
      out->push_back(b);
    if (r == R - 1) out->push_back(total);
  };
  std::vector<std::int64_t> list;
  const std::int64_t r0 = pos < total ? sc.round_of(pos) : R - 1;
  if (direction >= 0) {
    for (std::int64_t r = r0; r < R; ++r) {
      boundaries(r, &list);
      for (const auto b : list)
        if (b > pos) return b;
    }
    return total;
  }
  for (std::int64_t r = r0; r >= 0; --r) {
    boundaries(r, &list);
    for (auto i = list.rbegin(); i != list.rend(); ++i)
      if (*i < pos) return *i;
  }
  return 0;
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
  s.l2_resident_lines = m_engine.l2().resident_lines();
  const std::int64_t S = m_engine.slots(), T = m_engine.steps_per_program();
  if (s.position < s.events) {
    const EventInfo next = m_engine.event_info(s.position);
    s.wave = next.wave;
    const SlotSchedule& sc = m_engine.schedule();
    const RoundSlots active = sc.active(next.round);
    for (std::int64_t j = 0; j < std::min(S, p.programs()); ++j) {
      // Steps this slot has run: all rounds before the next event's, and this round's if it
      // comes before the next event's slot. A finished program's slot already holds the next
      // pid, which has not run a step yet; a slot that has not started holds its first pid.
      const std::int64_t done =
          sc.steps_before(j, next.round) + (active.contains(j) && j < next.slot ? 1 : 0);
      ResidentProgram r;
      r.slot = static_cast<int>(j);
      r.sm = r.slot % machine().sms;
      r.pid = done / T * S + j;
      r.next_step = done % T;
      if (r.pid >= p.programs()) continue;
      step_op(p, r.next_step, &r.k);
      r.tile = tile_of(p, r.pid);
      s.residents.push_back(r);
    }
  } else {
    s.wave = m_engine.waves();
  }
  fill_input_tiles(s, p, m_engine.a_reuse(), m_engine.b_reuse(), [&](const TileSpan& span) {
    const auto [resident, total] = tile_sectors(p, m_engine.l2(), span);
    return total ? static_cast<float>(resident) / static_cast<float>(total) : 0.f;
  });
  if (s.position > 0) {
    CurrentEvent c;
    c.info = m_engine.event_info(s.position - 1);
    c.l2 = m_records[static_cast<std::size_t>(s.position - 1)];
    s.current = c;
  }
  m_snapshot = std::move(s);
}

Snapshot end_of_run_snapshot(const Problem& p, const ReplayResult& r) {
  Snapshot s;
  s.position = s.events = p.programs() * steps_per_program(p);
  s.wave = r.waves;
  s.counters = r.counters;
  fill_input_tiles(s, p, r.a_reuse, r.b_reuse, [](const TileSpan&) { return 0.f; });
  return s;
}

}  // namespace tilesim::sim
