// Commands: every user action (button, key, drag, command-line flag) becomes one of these,
// applied between frames by apply_command. Panels only read the model and push commands, so
// what a click does is testable without a window.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/core/app_model.hpp"

namespace tilesim::app {

struct SetSpec {
  sim::ProblemSpec spec;
  std::string changed_field;
};
struct SetCompareOrder {
  std::optional<sim::LaunchOrder> order;
};
struct SetProgramsPerSm {
  std::optional<int> programs_per_sm;
};
struct SetMachine {
  std::string machine;
};
struct StepBy {
  StepUnit unit = StepUnit::event;
  int dir = 1;
};
struct Seek {
  std::int64_t position = 0;
};
struct SeekPid {
  std::int64_t pid = 0;
};
struct SeekHome {};
struct SeekEnd {};
struct TogglePlay {};
struct SetSpeed {
  double events_per_second = 8.0;
};
struct SetEventOrder {
  sim::EventOrderKind order = sim::kDefaultEventOrder;
};
struct SetTimeRate {
  double ps_per_second = 1e6;  // simulated picoseconds per wall second (timed order)
};
struct Advance {
  double seconds = 0;
};  // time passing while playing
struct LoadScenario {
  std::filesystem::path path;
};
struct SaveScenario {
  std::filesystem::path path;
};
// File -> Open kernel: a Triton file (.py) at the launch of its "# launch:" comments and `words`
// becomes the open problem; a refusal (file:line:col) is said and what was open stays. The file
// is read on a worker (Jobs::kernel) and lands between frames (land_kernel_open); another open
// or a scenario opened meanwhile supersedes it.
struct OpenKernel {
  std::filesystem::path path;
  std::string function;
  std::vector<std::string> words;
};
// The open kernel file was saved: re-read it (on the worker), keeping the position; a new
// refusal is shown (KernelFileState::error) and the last good version stays open. A no-op while
// the file is as last read, that version is being read already or an OpenKernel is in flight.
struct ReloadKernel {};
// Stops waiting for the kernel file being read: what is open stays (a cancelled reload is not
// read again until the next save).
struct CancelKernelOpen {};
struct Reset {};
// Jobs on worker threads (their results land in m.jobs). A sweep of the open problem along
// `axis` starts unless that very sweep is running, finished or was cancelled.
struct RequestSweep {
  SweepAxis axis = SweepAxis::group_size_m;
};
struct CancelSweep {};
struct QueryDevice {};  // once: later requests are no-ops
struct RunOnGpu {       // ignored while a run is in flight (runs would time each other)
  std::string variant;
};
// The timed engine's prediction for each measured row of the GPU panel, on the open machine:
// starts unless these very rows are being predicted or are done.
struct PredictRungs {
  std::vector<RungRow> rows;
};

using Command =
    std::variant<SetSpec, SetCompareOrder, SetProgramsPerSm, SetMachine, StepBy, Seek, SeekPid,
                 SeekHome, SeekEnd, TogglePlay, SetSpeed, SetEventOrder, SetTimeRate, Advance,
                 LoadScenario, SaveScenario, OpenKernel, ReloadKernel, CancelKernelOpen, Reset,
                 RequestSweep, CancelSweep, QueryDevice, RunOnGpu, PredictRungs>;

void apply_command(AppModel& m, const Command& c);
// Commands that start or query jobs: headless figures apply these and drop the rest.
bool is_job_request(const Command& c);
// Between frames (UI thread): a kernel file read by the worker becomes the open problem, or its
// refusal is said with what was open kept. A reload of a file no longer open is dropped.
struct KernelLanding {
  bool landed = false;  // false: nothing finished (still reading, or nothing asked)
  std::string error;    // the refusal, "file:line:col: reason"; empty when it opened
};
KernelLanding land_kernel_open(AppModel& m);
// Waits up to `timeout_s` for the kernel file being read and lands it: headless start-up
// (--triton with a figure to write, which has no frames to keep drawing) and tests.
KernelLanding finish_kernel_open(AppModel& m, double timeout_s);
// Quitting: stops every job and engine session of `m` and joins their threads. Each polls its
// stop flag between replay steps or launches, so this takes well under a second.
void shut_down(AppModel& m);

// Commands pushed during a frame, applied after it is drawn.
struct CommandQueue {
  std::vector<Command> pending;
  void push(Command c) { pending.push_back(std::move(c)); }
  void apply_all(AppModel& m) {
    auto cmds = std::move(pending);
    pending.clear();
    for (const auto& c : cmds) apply_command(m, c);
  }
};

}  // namespace tilesim::app
