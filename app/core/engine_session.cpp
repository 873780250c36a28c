// Engine session (see engine_session.hpp): one worker thread per session owns the timeline; the
// UI thread only posts requests and reads immutable frames behind a mutex.
#include "app/core/engine_session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "sim/engine.hpp"
#include "sim/program_trace.hpp"
#include "sim/replay_budget.hpp"

namespace tilesim::app {

HitRateSeries hit_rate_series(const sim::Timeline& t, int buckets) {
  HitRateSeries s;
  s.events = t.events();
  if (s.events == 0 || buckets < 1) return s;
  s.events_per_bucket = std::max<std::int64_t>(1, (s.events + buckets - 1) / buckets);
  std::int64_t hit = 0, all = 0;
  for (std::int64_t b0 = 0; b0 < s.events; b0 += s.events_per_bucket) {
    const std::int64_t b1 = std::min(s.events, b0 + s.events_per_bucket);
    std::int64_t h = 0, a = 0;
    for (std::int64_t e = b0; e < b1; ++e) {
      // As Counters::l2_hit_rate: a store's sectors all count as hits (they allocate in L2).
      const auto& r = t.record(e);
      const bool store = r.miss_sectors > 0 && t.event_info(e).op == sim::StepOp::store;
      h += store ? r.hit_sectors + r.miss_sectors : r.hit_sectors;
      a += r.hit_sectors + r.miss_sectors;
    }
    hit += h;
    all += a;
    s.cumulative.push_back(all ? float(double(hit) / double(all)) : 0.f);
    s.window.push_back(a ? float(double(h) / double(a)) : std::numeric_limits<float>::quiet_NaN());
  }
  return s;
}

std::int64_t event_of(const sim::SlotSchedule& s, std::int64_t slots, std::int64_t pid,
                      std::int64_t step) {
  const std::int64_t round = s.round_of_step(pid, step);
  return s.round_begin(round) + s.active(round).rank(pid % slots);
}

EngineSession::EngineSession() : m_worker([this](std::stop_token st) { run(st); }) {}

EngineSession::~EngineSession() {
  m_cancel = true;
  m_worker.request_stop();
  m_cv.notify_all();
  if (m_worker.joinable()) m_worker.join();
}

void EngineSession::open(const sim::Problem& p, const sim::Machine& m, const sim::Occupancy& occ) {
  std::lock_guard lock(m_mutex);
  ++m_generation;
  m_pending_build = Build{p, m, occ};
  m_ops.clear();
  m_events = p.programs() * sim::steps_per_program(p);
  m_target = 0;
  m_phase = EnginePhase::building;
  m_message.clear();
  m_frame.reset();
  m_series.reset();
  m_progress = 0;
  m_cancel = true;  // stops the build in progress; the worker clears it for the new one
  m_cv.notify_all();
}

void EngineSession::cancel() {
  std::lock_guard lock(m_mutex);
  if (m_phase != EnginePhase::building) return;
  m_pending_build.reset();
  m_cancel = true;
}

void EngineSession::seek(std::int64_t position) {
  std::lock_guard lock(m_mutex);
  m_ops.clear();
  m_target = std::clamp<std::int64_t>(position, 0, m_events);
  m_ops.push_back(Op{Op::seek, m_target});
  m_cv.notify_all();
}

void EngineSession::step(sim::Granularity g, int direction) {
  std::lock_guard lock(m_mutex);
  if (m_phase != EnginePhase::ready) return;  // no timeline to step through
  m_ops.push_back(Op{Op::step, 0, g, direction});
  m_cv.notify_all();
}

void EngineSession::seek_pid(std::int64_t pid) {
  std::lock_guard lock(m_mutex);
  m_ops.push_back(Op{Op::seek_pid, pid});
  m_cv.notify_all();
}

std::int64_t EngineSession::position() const {
  std::lock_guard lock(m_mutex);
  return m_target;
}

bool EngineSession::settled() const {
  std::lock_guard lock(m_mutex);
  if (m_phase == EnginePhase::building || m_pending_build) return false;
  if (m_phase != EnginePhase::ready) return true;
  return m_ops.empty() && !m_dirty && m_frame && m_frame->position == m_target;
}

EnginePhase EngineSession::phase() const {
  std::lock_guard lock(m_mutex);
  return m_phase;
}

std::string EngineSession::message() const {
  std::lock_guard lock(m_mutex);
  return m_message;
}

std::shared_ptr<const EngineFrame> EngineSession::frame() const {
  std::lock_guard lock(m_mutex);
  return m_frame;
}

std::shared_ptr<const HitRateSeries> EngineSession::series() const {
  std::lock_guard lock(m_mutex);
  return m_series;
}

bool EngineSession::wait_settled(double seconds) const {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!settled()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

void EngineSession::run(std::stop_token st) {
  while (!st.stop_requested()) {
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, st, [&] { return m_pending_build || (m_timeline && !m_ops.empty()); });
    if (st.stop_requested()) return;
    if (m_pending_build) {
      Build b = std::move(*m_pending_build);
      m_pending_build.reset();
      const auto gen = m_generation;
      m_cancel = false;
      lock.unlock();
      build(b, gen);
      continue;
    }
    auto ops = std::move(m_ops);
    m_ops.clear();
    m_dirty = true;
    const auto gen = m_generation;
    lock.unlock();
    for (const auto& op : ops) apply(op);
    lock.lock();
    if (gen != m_generation) continue;
    if (m_ops.empty()) m_target = m_timeline->position();
    lock.unlock();
    publish();
  }
}

void EngineSession::build(const Build& b, std::uint64_t generation) {
  m_timeline.reset();  // free the previous timeline here, not on the UI thread
  sim::TimelineOptions opt;
  opt.progress = [this](double f) { m_progress = f; };
  opt.cancel = &m_cancel;
  opt.memory_budget_bytes = m_budget;
  auto fail = [&](EnginePhase ph, std::string why) {
    std::lock_guard lock(m_mutex);
    if (generation != m_generation) return;
    m_phase = ph;
    m_message = std::move(why);
  };
  try {
    auto tl = std::make_unique<sim::Timeline>(b.problem, b.machine, b.occupancy, opt);
    m_schedule = std::make_shared<const sim::SlotSchedule>(
        b.problem.programs(), tl->slots(), sim::steps_per_program(b.problem), opt.schedule);
    auto series = std::make_shared<const HitRateSeries>(hit_rate_series(*tl));
    m_final = tl->final_counters();
    {
      std::lock_guard lock(m_mutex);
      if (generation != m_generation) return;
      m_timeline = std::move(tl);
      m_series = std::move(series);
      m_phase = EnginePhase::ready;
      if (!m_ops.empty()) return;  // the loop applies them, then publishes
    }
    publish();
  } catch (const sim::TimelineTooLarge& too_large) {
    // Counters of the whole run without per-event records: the end state only.
    try {
      m_progress = 0;
      // Same budget as `tilesim-cli run`: a replay estimated past 2 minutes or 4 GiB is refused
      // with its figures instead of keeping a worker (and the laptop's memory) busy.
      sim::check_replay_budget(sim::estimate_replay_cost(b.problem, b.machine), {});
      const auto r = sim::replay(
          b.problem, b.machine, b.occupancy, [this](double f) { m_progress = f; }, &m_cancel);
      auto f = std::make_shared<EngineFrame>();
      f->counters_only = true;
      f->events = f->position = b.problem.programs() * sim::steps_per_program(b.problem);
      f->slots = std::int64_t(b.machine.sms) * b.occupancy.programs_per_sm;
      f->waves = r.waves;
      f->final_counters = r.counters;
      auto& s = f->snapshot;
      s.position = s.events = f->events;
      s.wave = r.waves;
      s.counters = r.counters;
      const auto& p = b.problem;
      const bool mm = p.kernel() == sim::Kernel::matmul;
      s.a_rows = p.tiles_m();
      s.a_cols = mm ? p.k_tiles() : p.tiles_n();
      s.b_rows = mm ? p.k_tiles() : 0;
      s.b_cols = mm ? p.tiles_n() : 0;
      for (const auto& t : r.a_reuse) s.a_tiles.push_back(sim::TileView{0.f, t});
      for (const auto& t : r.b_reuse) s.b_tiles.push_back(sim::TileView{0.f, t});
      std::lock_guard lock(m_mutex);
      if (generation != m_generation) return;
      m_frame = std::move(f);
      m_target = m_events;
      m_phase = EnginePhase::counters_only;
      m_message = too_large.what();
    } catch (const std::exception& e) {
      fail(EnginePhase::failed, e.what());
    }
  } catch (const std::exception& e) {
    fail(EnginePhase::failed, e.what());
  }
}

void EngineSession::apply(const Op& op) {
  sim::Timeline& t = *m_timeline;
  switch (op.kind) {
    case Op::seek:
      t.seek(op.value);
      return;
    case Op::step:
      t.step(op.g, op.dir);
      return;
    case Op::seek_pid:
      if (op.value >= 0 && op.value < t.problem().programs())
        t.seek(event_of(*m_schedule, t.slots(), op.value, 0) + 1);
      return;
  }
}

void EngineSession::publish() {
  auto f = std::make_shared<EngineFrame>();
  f->snapshot = m_timeline->snapshot();
  f->position = f->snapshot.position;
  f->events = m_timeline->events();
  f->slots = m_timeline->slots();
  f->waves = m_timeline->waves();
  f->final_counters = m_final;
  f->schedule = m_schedule;
  std::lock_guard lock(m_mutex);
  if (m_phase != EnginePhase::ready) return;
  m_frame = std::move(f);
  m_dirty = false;
}

}  // namespace tilesim::app
