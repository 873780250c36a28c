// Engine session (see engine_session.hpp): one worker thread per session owns the timeline; the
// UI thread only posts requests and reads immutable frames behind a mutex.
#include "app/core/engine_session.hpp"

#include <algorithm>
#include <chrono>

#include "sim/program/program_trace.hpp"
#include "sim/replay/replay.hpp"
#include "sim/replay/replay_budget.hpp"

namespace tilesim::app {

EngineSession::EngineSession() : m_worker([this](std::stop_token st) { run(st); }) {}

EngineSession::~EngineSession() {
  m_cancel = true;
  m_worker.request_stop();
  m_cv.notify_all();
  if (m_worker.joinable()) m_worker.join();
}

void EngineSession::open(const sim::Problem& p, const sim::Machine& m, const sim::Occupancy& occ,
                         sim::EventOrderKind order) {
  std::lock_guard lock(m_mutex);
  ++m_generation;
  m_pending_build = Build{p, m, occ, order};
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

std::shared_ptr<const sim::HitRateSeries> EngineSession::series() const {
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
  opt.order = b.order;
  auto fail = [&](EnginePhase ph, std::string why) {
    std::lock_guard lock(m_mutex);
    if (generation != m_generation) return;
    m_phase = ph;
    m_message = std::move(why);
  };
  try {
    auto tl = std::make_unique<sim::Timeline>(b.problem, b.machine, b.occupancy, opt);
    // A copy the frames share: they outlive the timeline, which is freed on this thread.
    m_order = tl->shared_order();
    auto series = std::make_shared<const sim::HitRateSeries>(sim::hit_rate_series(*tl));
    m_final = tl->final_counters();
    m_timing = tl->timing();  // the timed engine's in every order
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
      sim::ReplayOptions ro;
      ro.order = b.order;
      ro.progress = [this](double f) { m_progress = f; };
      ro.cancel = &m_cancel;
      const auto r = sim::replay(b.problem, b.machine, b.occupancy, ro);
      auto f = std::make_shared<EngineFrame>();
      f->counters_only = true;
      f->snapshot = sim::end_of_run_snapshot(b.problem, r);
      f->events = f->position = f->snapshot.events;
      f->slots = std::int64_t(b.machine.sms) * b.occupancy.programs_per_sm;
      f->waves = r.waves;
      f->final_counters = r.counters;
      f->timing = r.timing;
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
        t.seek(t.order().event_of(op.value, 0) + 1);
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
  f->order = m_order;
  f->timing = m_timing;
  std::lock_guard lock(m_mutex);
  if (m_phase != EnginePhase::ready) return;
  m_frame = std::move(f);
  m_dirty = false;
}

}  // namespace tilesim::app
