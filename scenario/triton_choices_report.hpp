// Triton's choices for a problem (sim/compiler/triton_choices.hpp) as `tilesim-cli run` prints
// them ("what Triton does here": labelled lines, then the notes) and as `run --json`'s "triton"
// object, so that the CLI and the app show the same sentences from the same function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/compiler/triton_choices.hpp"

namespace tilesim::scenario {

// The header above the lines: whose choices these are (a prediction, nothing is compiled).
inline constexpr const char* kTritonChoicesTitle =
    "what Triton does here (Triton 3.6's choices, predicted by tilesim's rules)";

struct ChoiceLine {
  std::string label;  // "dot", "pipeline", "A loads", "B loads", "C stores", "registers"
  std::string text;   // "wgmma.m64n128k16.f32.f16.f16", "3 stages: cp.async into 3 ..."
};

// "3 stages: cp.async into 3 shared buffers" (which operands, where only one goes through
// cp.async), "no software pipeline" (a matmul: the notes say why), or for a copy or transpose
// "no software pipeline: one load and one store a program".
std::string pipeline_text(const sim::Problem& p, const sim::TritonChoices& t);

// A matmul: dot, pipeline, A loads, B loads, C stores, registers (labelled an estimate) and,
// where the loop spills, its local loads a K step. A copy or transpose: pipeline, loads,
// stores. The notes (t.notes) are not among them.
std::vector<ChoiceLine> triton_choice_lines(const sim::Problem& p, const sim::TritonChoices& t);

// `run --json`'s "triton" object: dot, dot_instruction, registers_estimate,
// spilled_registers_estimate, spilled_accumulators_estimate (of those, wgmma accumulator
// registers) and loop_local_loads_estimate (a thread's in-loop local loads each K step; all null
// for a copy or transpose, which have no tl.dot and no register estimate), pipeline_buffers, notes,
// and operands {a, b, c} (a copy or transpose: a and c), each with path
// ("cp.async" | "ld.global"; the store "st.global"), access_bytes, vector_elems, buffers,
// lanes_along_contiguous, swizzle_bytes, smem_transposed, smem_wavefronts_per_access,
// lines_per_access, sectors_per_access, warp_accesses, leading_stride and divisible_by_16.
nlohmann::json triton_choices_json(const sim::TritonChoices& t);

}  // namespace tilesim::scenario
