// The counters and predicted time of one replay as `tilesim-cli run --json` prints them, in the
// JSON layer so that the CLI, the sweep and a lesson's run.* figures read the same values from
// the same function (STYLE.md: a figure shown in the app and printed by the CLI comes from one
// function).
#pragma once

#include <nlohmann/json.hpp>

#include "sim/replay/engine.hpp"

namespace tilesim::scenario {

// Keys of `run --json` (fixed by issue 3): dram_read_bytes, dram_write_bytes, l2_read_bytes,
// l2_hit_rate, flops, events, waves, programs_per_sm, store_lanes, valid_store_lanes,
// predicted_time_s (the timed engine's), bound (its largest cause); plus time_breakdown, tflops,
// roofline_time_s and more (l2_load_hit_rate, arithmetic_intensity, ...), and "triton": the
// compiler's choices for the problem (triton_choices_report.hpp).
nlohmann::json replay_json(const sim::Problem& p, const sim::Machine& m,
                           const sim::ReplayResult& r);
// The timed engine's figures: seconds per cause, TFLOP/s and DRAM bytes/s at the predicted time.
nlohmann::json breakdown_json(const sim::TimingSummary& t);
double tflops(const sim::Problem& p, const sim::ReplayResult& r);
double dram_bytes_per_s(const sim::ReplayResult& r);

}  // namespace tilesim::scenario
