// Engine session: the simulator's timeline of one problem, built and stepped on a worker thread.
// The window never waits on the engine: building (seconds at 8192^3), seeking and snapshotting
// (tens of ms there) happen on the worker; the frame loop reads the latest published frame.
// When the timeline would not fit in memory, the session falls back to a counters-only replay.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "sim/replay/event_order.hpp"
#include "sim/replay/hit_rate_series.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/replay/timeline.hpp"

namespace tilesim::app {

// What the panels draw: the snapshot at one position, plus the whole run's totals.
struct EngineFrame {
  std::int64_t position = 0, events = 0;  // events executed, 0 .. events
  std::int64_t slots = 1, waves = 1;      // SMs x programs per SM; cdiv(programs, slots)
  sim::Snapshot snapshot;
  sim::Counters final_counters;                  // at the end of the run (flush included)
  bool counters_only = false;                    // no timeline: snapshot is the end of a replay
  std::shared_ptr<const sim::EventOrder> order;  // the timeline's (null: counters only)
  sim::TimingSummary timing;  // the timed engine's prediction for the whole run (any order)
};

enum class EnginePhase { empty, building, ready, counters_only, failed };

class EngineSession {
 public:
  EngineSession();
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  // Starts building the timeline of `p` (cancelling any build in progress); position 0.
  void open(const sim::Problem& p, const sim::Machine& m, const sim::Occupancy& occ,
            sim::EventOrderKind order = sim::kDefaultEventOrder);
  void cancel();  // stops a build; the phase becomes failed ("cancelled")
  // Memory a timeline may take before the session falls back to a counters-only replay (the
  // next open() uses it; tests shrink it to exercise the fallback).
  void set_memory_budget(std::int64_t bytes) { m_budget = bytes; }

  // Requests, applied in order on the worker (a seek drops pending steps).
  void seek(std::int64_t position);  // clamped to 0 .. events()
  void step(sim::Granularity g, int direction);
  void seek_pid(std::int64_t pid);  // just after the program's first step

  std::int64_t events() const { return m_events; }
  // The position the session is at or heading to (steps resolve on the worker within ms).
  std::int64_t position() const;
  bool settled() const;  // the published frame shows position() and nothing is pending
  EnginePhase phase() const;
  double progress() const { return m_progress.load(); }
  std::string message() const;  // why the timeline fell back or failed
  std::shared_ptr<const EngineFrame> frame() const;
  std::shared_ptr<const sim::HitRateSeries> series() const;
  // Blocks until settled or `seconds` pass (headless figures and tests only).
  bool wait_settled(double seconds) const;

 private:
  struct Op {
    enum Kind { seek, step, seek_pid } kind = seek;
    std::int64_t value = 0;
    sim::Granularity g = sim::Granularity::event;
    int dir = 1;
  };
  struct Build {
    sim::Problem problem;
    sim::Machine machine;
    sim::Occupancy occupancy;
    sim::EventOrderKind order = sim::kDefaultEventOrder;
  };
  void run(std::stop_token st);
  void build(const Build& b, std::uint64_t generation);
  void apply(const Op& op);
  void publish();

  mutable std::mutex m_mutex;
  std::condition_variable_any m_cv;
  std::optional<Build> m_pending_build;
  std::vector<Op> m_ops;
  std::uint64_t m_generation = 0;
  std::int64_t m_events = 0;
  std::int64_t m_target = 0;
  bool m_dirty = false;  // the published frame lags the timeline's position
  EnginePhase m_phase = EnginePhase::empty;
  std::string m_message;
  std::shared_ptr<const EngineFrame> m_frame;
  std::shared_ptr<const sim::HitRateSeries> m_series;
  std::atomic<double> m_progress{0};
  std::atomic<bool> m_cancel{false};
  std::atomic<std::int64_t> m_budget{sim::TimelineOptions{}.memory_budget_bytes};
  std::unique_ptr<sim::Timeline> m_timeline;       // worker only
  std::shared_ptr<const sim::EventOrder> m_order;  // worker only
  sim::Counters m_final;                           // worker only
  sim::TimingSummary m_timing;                     // worker only
  std::jthread m_worker;                           // last: starts after everything above exists
};

}  // namespace tilesim::app
