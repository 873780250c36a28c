// Triton's choices as `run` prints them and `run --json` holds them (triton_choices_report.hpp).
#include "scenario/triton_choices_report.hpp"

namespace tilesim::scenario {
namespace {

std::string buffers_text(int n) {
  return std::to_string(n) + (n == 1 ? " shared buffer" : " shared buffers");
}

nlohmann::json operand_json(const sim::OperandChoice& o, bool store) {
  return nlohmann::json{
      {"path", store ? std::string("st.global") : std::string(sim::to_string(o.path))},
      {"access_bytes", o.access_bytes},
      {"vector_elems", o.vector_elems},
      {"buffers", o.buffers},
      {"lanes_along_contiguous", o.lanes_along_contiguous},
      {"swizzle_bytes", o.swizzle_bytes},
      {"smem_transposed", o.smem_transposed},
      {"smem_wavefronts_per_access", o.smem_wavefronts_per_access},
      {"lines_per_access", o.lines_per_access},
      {"sectors_per_access", o.sectors_per_access},
      {"warp_accesses", o.warp_accesses},
      {"leading_stride", o.leading_stride},
      {"divisible_by_16", o.divisible_by_16},
  };
}

}  // namespace

std::string pipeline_text(const sim::Problem& p, const sim::TritonChoices& t) {
  // A copy or a transpose has no loop: its one tile goes through registers.
  if (!t.matmul) return "no software pipeline: one load and one store a program";
  const bool a = t.a.path == sim::LoadPath::cp_async, b = t.b.path == sim::LoadPath::cp_async;
  // Not pipelined at all: the notes say why (num_stages = 1, no cp.async, narrow loads).
  if (!a && !b) return "no software pipeline: ld.global through registers";
  const int stages = p.spec().stages;
  std::string s =
      std::to_string(stages) + " stages: cp.async into " + buffers_text(t.pipeline_buffers);
  // One operand too narrow for cp.async (under 4 bytes) waits in registers every K step.
  if (a != b) s += a ? " for A only (B not pipelined)" : " for B only (A not pipelined)";
  return s;
}

std::vector<ChoiceLine> triton_choice_lines(const sim::Problem& p, const sim::TritonChoices& t) {
  std::vector<ChoiceLine> out;
  const std::string store = "st.global " + std::to_string(t.c.access_bytes) + " B";
  if (!t.matmul) {
    out.push_back({"pipeline", pipeline_text(p, t)});
    out.push_back({"loads", sim::describe(t.a)});
    out.push_back({"stores", store});
    return out;
  }
  // ptxas's serialised wgmmas: a note says why it matters.
  out.push_back({"dot", t.dot_instruction + (t.wgmma_serialized ? ", serialised by ptxas" : "")});
  out.push_back({"pipeline", pipeline_text(p, t)});
  out.push_back({"A loads", sim::describe(t.a)});
  out.push_back({"B loads", sim::describe(t.b)});
  out.push_back({"C stores", store});
  // A fit to ptxas' counts (about 10 % off on average), not a compiled kernel's figure.
  std::string regs = "\u2248 " + std::to_string(t.registers) + " a thread (estimate)";
  // Past 255 the rest spill to local memory: a note says how many.
  if (t.spilled_registers > 0) regs += ", the most a thread may hold";
  out.push_back({"registers", regs});
  // Spills inside the loop cost every K step (a census of ptxas's loops, not this kernel's).
  if (t.loop_local_loads > 0)
    out.push_back({"spills", "\u2248 " + std::to_string(t.loop_local_loads) +
                                 " local loads a thread every K step (estimate), each an L2 "
                                 "round trip before the loads go out"});
  return out;
}

nlohmann::json triton_choices_json(const sim::TritonChoices& t) {
  nlohmann::json operands{{"a", operand_json(t.a, false)}};
  if (t.matmul) operands["b"] = operand_json(t.b, false);
  operands["c"] = operand_json(t.c, true);
  nlohmann::json j{
      {"dot", nullptr},
      {"dot_instruction", nullptr},
      {"wgmma_serialized", nullptr},
      {"pipeline_buffers", t.pipeline_buffers},
      {"registers_estimate", nullptr},
      {"spilled_registers_estimate", nullptr},
      {"spilled_accumulators_estimate", nullptr},
      {"loop_local_loads_estimate", nullptr},
      {"notes", t.notes},
      {"operands", operands},
  };
  if (t.matmul) {
    j["dot"] = sim::to_string(t.dot);
    j["dot_instruction"] = t.dot_instruction;
    j["wgmma_serialized"] = t.wgmma_serialized;
    j["registers_estimate"] = t.registers;
    j["spilled_registers_estimate"] = t.spilled_registers;
    j["spilled_accumulators_estimate"] = t.spilled_accumulators;
    j["loop_local_loads_estimate"] = t.loop_local_loads;
  }
  return j;
}

}  // namespace tilesim::scenario
