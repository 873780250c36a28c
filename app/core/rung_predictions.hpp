// The GPU panel's "timed engine predicts" column: for each measured row, its own rung's
// prediction — the record's problem as that rung runs it, described as the variant registry says
// (kernels::rung_timing: tile, warps, stages, math path, shared layout), replayed by the timed
// engine on the open machine. So two rungs on one problem get two predictions, and the column
// shows why one is slower. A 4096^3 replay takes ~0.15 s: computed once per set of rows and
// machine on a worker thread (an AsyncJob of Jobs), never per frame.
#pragma once

#include <atomic>
#include <stop_token>
#include <string>
#include <vector>

#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::app {

// One measured row: the variant and the problem it ran (a bench record's, or a live run's).
struct RungRow {
  std::string variant;
  sim::ProblemSpec spec;
  bool operator==(const RungRow&) const = default;
};

struct RungPrediction {
  RungRow row;
  bool modelled = false;   // false: no description in the registry (naive kernels, cuBLAS)
  std::string error;       // modelled, but the timed engine refused it (does not fit, ...)
  sim::ProblemSpec timed;  // the problem the engine replayed (the rung's tile, warps, stages)
  sim::TimingSummary timing;
};
using RungPredictions = std::vector<RungPrediction>;

// Names a request: every row and the machine (equal keys: the same predictions).
std::string rung_predictions_key(const std::vector<RungRow>& rows, const std::string& machine);
// The predictions of `rows` on `m`, in order; each row on its own occupancy (the open scenario's
// programs-per-SM override belongs to its problem, not to another rung's tile). Stops early
// (returning what it has) when `st` is requested.
RungPredictions predict_rungs(const std::vector<RungRow>& rows, const sim::Machine& m,
                              std::stop_token st, std::atomic<double>& progress);
// The prediction of `row` in `p`, or nullptr.
const RungPrediction* find_prediction(const RungPredictions& p, const RungRow& row);

}  // namespace tilesim::app
