// The counters of one replay as `run` and `sweep` print them (JSON object and text lines), so
// both subcommands show the same figures from the same function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "scenario/run_report.hpp"
#include "sim/replay/engine.hpp"

namespace tilesim::cli {

// replay_json and the figures it holds live in scenario/run_report.hpp (a lesson's run.*
// figures read them too); the breakdown as "math 61%, l2 37%" (shares of at least 0.5 %).
using scenario::breakdown_json;
using scenario::dram_bytes_per_s;
using scenario::replay_json;
using scenario::tflops;
std::string breakdown_text(const sim::TimingSummary& t);
// "transpose 3x4 fp16, blocks 2x2, row-major order": the fields this kernel and order use.
std::string problem_line(const sim::ProblemSpec& s);
// A multi-line human-readable report: the replay's counters and time, then Triton's choices.
std::string replay_text(const sim::Problem& p, const sim::Machine& m, const sim::ReplayResult& r);
// "what Triton does here (...)": the dot, the pipeline, each operand's loads, the store, the
// register estimate, then every note (off the fast path, with its cause), one a line.
std::string triton_choices_text(const sim::Problem& p, const sim::Machine& m);

}  // namespace tilesim::cli
