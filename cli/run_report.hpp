// The counters of one replay as `run` and `sweep` print them (JSON object and text lines), so
// both subcommands show the same figures from the same function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/replay/engine.hpp"

namespace tilesim::cli {

// Keys of `run --json` (fixed by issue 3): dram_read_bytes, dram_write_bytes, l2_read_bytes,
// l2_hit_rate, flops, events, waves, programs_per_sm, store_lanes, valid_store_lanes,
// predicted_time_s (the timed engine's), bound (its largest cause); plus time_breakdown, tflops,
// roofline_time_s and more (l2_load_hit_rate, arithmetic_intensity, ...).
nlohmann::json replay_json(const sim::Problem& p, const sim::Machine& m,
                           const sim::ReplayResult& r);
// The timed engine's figures: seconds per cause, TFLOP/s and DRAM bytes/s at the predicted time,
// and the breakdown as "math 61%, l2 37%" (shares of at least 0.5 %).
nlohmann::json breakdown_json(const sim::TimingSummary& t);
double tflops(const sim::Problem& p, const sim::ReplayResult& r);
double dram_bytes_per_s(const sim::ReplayResult& r);
std::string breakdown_text(const sim::TimingSummary& t);
// "transpose 3x4 fp16, blocks 2x2, row-major order": the fields this kernel and order use.
std::string problem_line(const sim::ProblemSpec& s);
// A multi-line human-readable report.
std::string replay_text(const sim::Problem& p, const sim::Machine& m, const sim::ReplayResult& r);

}  // namespace tilesim::cli
