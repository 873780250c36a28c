// Engine: the wave / round / slot loop and the memory steps that feed the L2 model.
#include "sim/replay/engine.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilesim::sim {

std::int64_t EngineCheckpoint::bytes() const {
  return static_cast<std::int64_t>(sizeof(*this) + l2.capacity() * sizeof(L2LineState) +
                                   (a_reuse.capacity() + b_reuse.capacity()) * sizeof(TileReuse));
}

Engine::Engine(const Problem& p, const Machine& m, int programs_per_sm, EventOrderKind rounds)
    : m_problem(p),
      m_machine(m),
      m_programs_per_sm(programs_per_sm),
      m_l2(std::in_place, p.address_space_bytes(), effective_l2_bytes(m), m.l2_ways) {
  if (programs_per_sm < 1) throw std::invalid_argument("Engine: programs_per_sm < 1");
  m_slots = static_cast<std::int64_t>(m.sms) * programs_per_sm;
  m_steps = sim::steps_per_program(p);
  m_schedule = SlotSchedule(p.programs(), m_slots, m_steps, rounds);
  if (p.kernel() == Kernel::matmul) {
    m_a_reuse.resize(static_cast<std::size_t>(p.tiles_m() * p.k_tiles()));
    m_b_reuse.resize(static_cast<std::size_t>(p.k_tiles() * p.tiles_n()));
  } else {
    m_a_reuse.resize(static_cast<std::size_t>(p.tiles_m() * p.tiles_n()));
  }
  set_cursor();
}

void Engine::use_tile_lru() {
  if (m_machine.l2_ways != 0 || m_position != 0 || m_tiles) return;
  // One model at a time, so memory stays what replay_budget.cpp estimates for the line model:
  // 4 bytes per line of the address space either way.
  m_l2.reset();
  m_tiles.emplace(m_problem.address_space_bytes(), effective_l2_bytes(m_machine));
}

void Engine::line_model(const std::vector<L2LineState>& lines) {
  m_tiles.reset();
  m_l2.emplace(m_problem.address_space_bytes(), effective_l2_bytes(m_machine), m_machine.l2_ways);
  m_l2->restore(lines);
}

void Engine::leave_tile_lru() {
  line_model(m_tiles->save());  // the resident lines (at most the L2's), then the tile model goes
}

const L2Cache& Engine::l2() const {
  if (!m_l2) throw std::logic_error("Engine::l2(): the L2 is modelled by tiles");
  return *m_l2;
}

std::int64_t Engine::waves() const {
  return cdiv(m_problem.programs(), m_slots);
}

std::int64_t Engine::wave_begin(std::int64_t wave) const {
  if (wave >= waves()) return total_events();
  return m_schedule.event_of(wave * m_slots, 0);
}

EventInfo Engine::event_info(std::int64_t e) const {
  if (e < 0 || e >= total_events())
    throw std::out_of_range("event " + std::to_string(e) + " is out of range: allowed 0.." +
                            std::to_string(total_events() - 1));
  EventInfo info;
  info.index = e;
  info.round = m_schedule.round_of(e);
  const std::int64_t slot =
      m_schedule.active(info.round).at(e - m_schedule.round_begin(info.round));
  info.slot = static_cast<int>(slot);
  info.sm = info.slot % m_machine.sms;
  info.pid = m_schedule.pid(slot, info.round);
  info.step = m_schedule.step(slot, info.round);
  info.wave = info.pid / m_slots;
  info.op = step_op(m_problem, info.step, &info.k);
  info.tile = tile_of(m_problem, info.pid);
  return info;
}

void Engine::set_cursor() {
  if (m_position >= total_events()) {
    m_round = m_schedule.rounds(), m_rank = 0, m_active = {};
    return;
  }
  m_round = m_schedule.round_of(m_position);
  m_active = m_schedule.active(m_round);
  m_rank = m_position - m_schedule.round_begin(m_round);
}

AccessResult Engine::step() {
  AccessResult r;
  run(1, &r);
  return r;
}

std::int64_t Engine::run(std::int64_t count, AccessResult* records) {
  const std::int64_t total = total_events();
  std::int64_t done = 0;
  while (done < count && m_position < total) {
    const std::int64_t slot = m_active.at(m_rank);
    const AccessResult r = execute(m_schedule.pid(slot, m_round), m_schedule.step(slot, m_round));
    if (records) records[done] = r;
    ++done;
    ++m_position;
    if (++m_rank == m_active.count()) {
      // Next round (skipping none: every round up to the last has an active slot).
      m_rank = 0;
      m_active = m_schedule.active(++m_round);
    }
  }
  return done;
}

AccessResult Engine::apply(std::int64_t pid, std::int64_t step) {
  const AccessResult r = execute(pid, step);
  ++m_position;
  return r;
}

AccessResult Engine::apply(StepOp op, std::int64_t k, TileCoord tile) {
  const AccessResult r = execute(op, k, tile);
  ++m_position;
  return r;
}

AccessResult Engine::execute(std::int64_t pid, std::int64_t step) {
  std::int64_t k = -1;
  const StepOp op = step_op(m_problem, step, &k);
  return execute(op, k, is_memory_op(op) ? tile_of(m_problem, pid) : TileCoord{});
}

AccessResult Engine::execute(StepOp op, std::int64_t k, TileCoord tile) {
  const Problem& p = m_problem;
  const std::int64_t e = p.elem_bytes();
  const std::int64_t bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  Counters& c = m_counters;
  ++c.events;
  AccessResult r;
  switch (op) {
    case StepOp::map:
      break;
    case StepOp::dot:
      c.flops += 2.0 * static_cast<double>(bm * bn * bk);
      c.smem_read_bytes += (bm * bk + bk * bn) * e;  // A (BM, BK) and B (BK, BN) tiles
      c.register_bytes += 2 * bm * bn * 4;           // fp32 accumulator read and written
      break;
    case StepOp::transpose:
      c.smem_write_bytes += bm * bn * e;  // the tile goes through shared memory
      c.smem_read_bytes += bm * bn * e;
      break;
    default:
      r = memory_step(op, tile, k);
      break;
  }
  if (m_position + 1 == total_events()) {
    // The kernel has finished: every dirty sector still in L2 reaches DRAM.
    const std::int64_t flushed = m_tiles ? m_tiles->flush() : m_l2->flush();
    r.writeback_sectors += static_cast<std::int32_t>(flushed);
    c.dram_write_bytes += flushed * L2Cache::kSectorBytes;
    c.dram_flush_bytes += flushed * L2Cache::kSectorBytes;
  }
  return r;
}

AccessResult Engine::memory_step(StepOp op, TileCoord tile, std::int64_t k) {
  const Problem& p = m_problem;
  const TileSpan s = step_span(p, op, tile, k);
  const MatrixShape shape = p.shape(s.operand);
  const std::uint64_t e = static_cast<std::uint64_t>(p.elem_bytes());
  const std::uint64_t base = p.base_address(s.operand);
  const bool write = op == StepOp::store;
  AccessResult r;
  std::int64_t lines_touched = 0;
  // Contiguous runs go along the unit-stride axis: columns (row-major) or rows (B transposed).
  const bool along_cols = shape.stride_col == 1;
  const int outer_n = along_cols ? s.rows : s.cols;
  const std::int64_t inner_on = along_cols ? s.cols_on() : s.rows_on();
  const std::int64_t inner0 = along_cols ? s.col0 : s.row0;
  const std::int64_t inner_extent = along_cols ? s.col_extent : s.row_extent;
  const bool inner_wrap = along_cols ? s.wrap_cols : s.wrap_rows;
  const std::uint64_t outer_stride =
      static_cast<std::uint64_t>(along_cols ? shape.stride_row : shape.stride_col);
  const bool outer_contiguous = !(along_cols ? s.wrap_rows : s.wrap_cols);
  if (!inner_wrap && outer_contiguous) {
    // The common case: rows (or columns) outer0 .. outer0 + outer_on - 1, one run each.
    const std::int64_t outer_on = along_cols ? s.rows_on() : s.cols_on();
    const std::int64_t outer0 = along_cols ? s.row0 : s.col0;
    const std::uint64_t first = base + (static_cast<std::uint64_t>(outer0) * outer_stride +
                                        static_cast<std::uint64_t>(inner0)) *
                                           e;
    const std::uint64_t run = static_cast<std::uint64_t>(inner_on) * e;
    if (inner_on > 0 && outer_on > 0) {
      if (m_tiles && !m_tiles->touch(first, outer_stride * e, outer_on, run, write, &r))
        leave_tile_lru();
      if (!m_tiles) m_l2->access_rows(first, outer_stride * e, outer_on, run, write, &r);
      lines_touched = outer_on * static_cast<std::int64_t>((first % 128 + run - 1) / 128 + 1);
    }
  } else {
    if (m_tiles) leave_tile_lru();
    for (int i = 0; i < outer_n && inner_on > 0; ++i) {
      if (!(along_cols ? s.row_on(i) : s.col_on(i))) continue;
      const std::uint64_t outer = static_cast<std::uint64_t>(along_cols ? s.row(i) : s.col(i));
      const std::uint64_t row_base = base + outer * outer_stride * e;
      // Wrapped indices: (inner0 + j) % extent, a run up to the edge, then from 0 again.
      std::int64_t c0 = inner_wrap ? inner0 % inner_extent : inner0, left = inner_on;
      while (left > 0) {
        const std::int64_t len = inner_wrap ? std::min(left, inner_extent - c0) : left;
        const std::uint64_t b = row_base + static_cast<std::uint64_t>(c0) * e;
        const std::uint64_t end = b + static_cast<std::uint64_t>(len) * e;
        lines_touched += static_cast<std::int64_t>((end - 1) / 128 - b / 128 + 1);
        m_l2->access(b, end, write, &r);
        left -= len;
        c0 = 0;
      }
    }
  }
  m_line_ops += lines_touched;

  Counters& c = m_counters;
  const std::int64_t sectors = r.hit_sectors + r.miss_sectors;
  const std::int64_t lanes_bytes = s.lanes() * static_cast<std::int64_t>(e);
  c.l2_evicted_lines += r.evicted_lines;
  c.l2_evicted_sectors += r.evicted_sectors;
  c.dram_write_bytes += std::int64_t{r.writeback_sectors} * L2Cache::kSectorBytes;
  count_l2_sectors(c, write, r.hit_sectors, r.miss_sectors);
  if (write) {
    ++c.tile_stores;
    c.l2_write_bytes += sectors * L2Cache::kSectorBytes;
    c.store_lane_bytes += s.lanes_on() * static_cast<std::int64_t>(e);
    c.store_lanes += s.lanes();
    c.valid_store_lanes += s.lanes_on();
    c.register_bytes += lanes_bytes;  // the output tile leaves the registers
    return r;
  }
  ++c.tile_loads;
  c.l2_read_bytes += sectors * L2Cache::kSectorBytes;
  c.dram_read_bytes += std::int64_t{r.miss_sectors} * L2Cache::kSectorBytes;
  c.load_lane_bytes += s.lanes_on() * static_cast<std::int64_t>(e);
  if (p.kernel() == Kernel::matmul)
    c.smem_write_bytes += lanes_bytes;  // masked lanes are filled with 0 in shared memory
  else
    c.register_bytes += lanes_bytes;
  TileReuse* t = nullptr;
  if (op == StepOp::load_a)
    t = &m_a_reuse[static_cast<std::size_t>(tile.pid_m * p.k_tiles() + k)];
  else if (op == StepOp::load_b)
    t = &m_b_reuse[static_cast<std::size_t>(k * p.tiles_n() + tile.pid_n)];
  else
    t = &m_a_reuse[static_cast<std::size_t>(tile.pid_m * p.tiles_n() + tile.pid_n)];
  ++t->loads;
  t->hit_sectors += r.hit_sectors;
  t->dram_sectors += r.miss_sectors;
  return r;
}

EngineCheckpoint Engine::save() const {
  EngineCheckpoint c;
  c.position = m_position;
  c.counters = m_counters;
  c.l2 = m_tiles ? m_tiles->save() : m_l2->save();
  c.a_reuse = m_a_reuse;
  c.b_reuse = m_b_reuse;
  return c;
}

void Engine::restore(const EngineCheckpoint& c) {
  m_position = c.position;
  m_counters = c.counters;
  if (m_tiles)
    line_model(c.l2);
  else
    m_l2->restore(c.l2);
  m_a_reuse = c.a_reuse;
  m_b_reuse = c.b_reuse;
  set_cursor();
}

ReplayResult replay_rounds(const Problem& p, const Machine& m, const Occupancy& occ,
                           EventOrderKind rounds, const std::function<void(double)>& progress,
                           const std::atomic<bool>* cancel) {
  Engine engine(p, m, occ.programs_per_sm, rounds);
  engine.use_tile_lru();  // counters only
  const std::int64_t total = engine.total_events();
  // Chunks of ~1/256 of the work keep progress and cancel responsive at any size.
  const std::int64_t chunk = std::max<std::int64_t>(1, total / 256);
  while (!engine.done()) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw std::runtime_error("cancelled");
    engine.run(chunk);
    if (progress) progress(static_cast<double>(engine.position()) / static_cast<double>(total));
  }
  ReplayResult out;
  out.occupancy = occ;
  out.order = rounds;
  out.waves = engine.waves();
  out.line_ops = engine.line_ops();
  out.counters = engine.counters();
  out.roofline = roofline(out.counters, p, m);
  out.a_reuse = engine.a_reuse();
  out.b_reuse = engine.b_reuse();
  return out;
}

}  // namespace tilesim::sim
