// libFuzzer target: a Triton kernel file (source text with its "# launch:" comments) is parsed,
// program 0 evaluated and the problem inferred; every input is either accepted or refused with
// SourceError / sim::InvalidField naming a position or field — never a crash, a hang or an
// allocation past the front end's caps.
#include <cstdint>
#include <string>

#include "sim/base/limits.hpp"
#include "triton/bounds_check.hpp"
#include "triton/bridge.hpp"
#include "triton/kernel_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto k = tilesim::triton::load_kernel_text(std::move(text), "fuzz.py");
    if (k.ev->launch().programs() < 1) __builtin_trap();
    (void)k.ev->run(0);
    (void)tilesim::triton::out_of_bounds(*k.ev, {0});
    // A small lane budget keeps one input's work bounded: few programs are checked.
    tilesim::triton::InferOptions opt;
    opt.lane_budget = 1 << 16;
    const auto inf = tilesim::triton::infer_problem(*k.ev, opt);
    if (inf.programs_checked < 1) __builtin_trap();
  } catch (const tilesim::sim::InvalidField&) {  // SourceError is one
  }
  return 0;
}
