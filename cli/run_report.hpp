// The counters of one replay as `run` and `sweep` print them (JSON object and text lines), so
// both subcommands show the same figures from the same function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/engine.hpp"

namespace tilesim::cli {

// Keys of `run --json` (fixed by issue 3): dram_read_bytes, dram_write_bytes, l2_read_bytes,
// l2_hit_rate, flops, events, waves, programs_per_sm, store_lanes, valid_store_lanes,
// predicted_time_s, bound; plus a few more (l2_load_hit_rate, arithmetic_intensity, ...).
nlohmann::json replay_json(const sim::Problem& p, const sim::Machine& m,
                           const sim::ReplayResult& r);
// A multi-line human-readable report.
std::string replay_text(const sim::Problem& p, const sim::Machine& m, const sim::ReplayResult& r);

}  // namespace tilesim::cli
