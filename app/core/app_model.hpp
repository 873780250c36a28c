// The app's model: the open scenario, its last valid Problem, the machine it runs on and the
// engine sessions (timelines built on worker threads) of its launch order and the compare order.
// Panels never mutate it: they push Commands (commands.hpp) applied between frames. Long jobs
// (sweeps, GPU runs, per-rung predictions, reading a kernel file) belong to it too: started by
// commands, joined when it goes away.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "app/core/async_job.hpp"
#include "app/core/engine_session.hpp"
#include "app/core/gpu_view.hpp"
#include "app/core/kernel_file.hpp"
#include "app/core/playback.hpp"
#include "app/core/rung_predictions.hpp"
#include "app/core/sweep.hpp"
#include "scenario/scenario.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::app {

// A field the learner typed that sim::Problem refused; shown next to that field.
struct FieldError {
  std::string field;    // scenario key, e.g. "block_m"
  std::string message;  // sim::InvalidField::what()
};

// Jobs on worker threads and their latest results. Each AsyncJob joins its threads when it is
// destroyed; opening another scenario keeps them (a GPU run cannot be interrupted mid-launch).
struct Jobs {
  AsyncJob<std::vector<SweepBar>> sweep;
  AsyncJob<kernels::DeviceInfo> device;  // queried once, off the UI thread
  AsyncJob<GpuRun> gpu;
  int gpu_runs = 0;                 // makes each "Run on GPU" a new job
  AsyncJob<RungPredictions> rungs;  // the GPU panel's prediction for each measured rung
  // A kernel file being read (OpenKernel, ReloadKernel); land_kernel_open applies it. The front
  // end does not poll a stop token, so a stopped read runs to its end and its result is dropped.
  AsyncJob<KernelRead> kernel;
  KernelRequest kernel_request;  // the latest asked for, and when (what the status line says)
  std::chrono::steady_clock::time_point kernel_requested_at{};
  int kernel_opens = 0;  // makes each OpenKernel a new read of the file
  // Asks every job to stop and joins them (all asked first, so they wind down together).
  void stop_and_join() {
    sweep.request_stop();
    device.request_stop();
    gpu.request_stop();
    rungs.request_stop();
    kernel.request_stop();
    sweep.stop_and_join();
    device.stop_and_join();
    gpu.stop_and_join();
    rungs.stop_and_join();
    kernel.stop_and_join();
  }
};

struct AppModel {
  scenario::Scenario scenario;  // as loaded or edited; scenario.problem is the last valid spec
  sim::Problem problem{sim::ProblemSpec{}};
  std::optional<sim::Problem> compare;  // same problem in scenario.compare_order
  std::optional<FieldError> field_error;
  std::filesystem::path path;  // where the scenario came from / was saved to
  // The Triton file the problem is (File -> Open kernel, --triton, a scenario's triton_file):
  // the code and broadcast panels then show the file, the GPU panel its measured run.
  std::optional<KernelFileState> kernel_file;
  sim::Machine machine;                   // the scenario's preset or custom machine
  sim::Occupancy occupancy;               // programs per SM (computed or the scenario's override)
  std::shared_ptr<EngineSession> engine;  // timeline of `problem`
  std::shared_ptr<EngineSession> engine_compare;  // timeline of `compare`, same position
  sim::EventOrderKind event_order = sim::kDefaultEventOrder;  // both sessions replay it
  bool playing = false;
  double speed = 8.0;       // events per second while playing (round orders)
  double play_accum = 0.0;  // fractional events carried between frames; timed: the fraction
  // Timed order: simulated time plays at this rate (picoseconds of GPU time per wall second:
  // 1e6 = 1 us of GPU time per second) from play_time_ps on.
  double ps_per_second = 1e6;
  double play_time_ps = 0;
  std::string status;  // last message for the status line
  bool status_is_error = false;
  std::unique_ptr<Jobs> jobs = std::make_unique<Jobs>();

  // From the machine and sim::occupancy (the scenario may override programs per SM).
  std::int64_t sms() const { return machine.sms; }
  std::int64_t programs_per_sm() const { return occupancy.programs_per_sm; }
  std::int64_t events() const { return engine ? engine->events() : 0; }
  std::int64_t position() const { return engine ? engine->position() : 0; }
  std::int64_t wave_programs() const { return sms() * programs_per_sm(); }
};

// A model showing `s` (its problem must be valid: it came through scenario::parse_scenario).
// Throws sim::InvalidField when the scenario does not resolve (scenario::resolve: a bad machine).
// A scenario naming a kernel file (s.triton_path) opens it too (a file that no longer reads is
// said in the status line; the problem stays the scenario's).
AppModel make_model(const scenario::Scenario& s, std::filesystem::path path = {},
                    sim::EventOrderKind order = sim::kDefaultEventOrder);
// The default start: seed 004's 574^3 matmul, 64^3 blocks, GROUP_SIZE_M = 3, grouped vs row-major.
scenario::Scenario default_scenario();
// Where the compare session belongs: the main session's simulated time (timed orders) or its
// position (round orders).
std::int64_t compare_target(const AppModel& m);
// Keeps the compare session there (steps resolve on the worker).
void sync_sessions(AppModel& m);

}  // namespace tilesim::app
