// tilesim-run-one: one launch of one CUDA variant on one problem, nothing else on the GPU's
// kernel list but input fills. Made to sit under Nsight Compute (scripts/calibrate): the profiled
// launch is the variant's own, with the problem given by the same flags as tilesim-cli.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "kernels/kernels.hpp"
#include "scenario/problem_flags.hpp"

int main(int argc, char** argv) {
  using namespace tilesim;
  CLI::App app{"tilesim-run-one: one launch of a CUDA variant (for Nsight Compute)"};
  scenario::ProblemFlags flags;
  flags.add_to(app);
  std::string variant;
  app.add_option("--variant", variant, "variant name (tilesim-bench --list)")->required();
  try {
    // Numeric flags refuse bad values with sim::InvalidField, thrown out of parse.
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilesim-run-one: %s\n", e.what());
    return 2;
  }
  try {
    const sim::Problem p(flags.to_scenario().problem);
    kernels::RunOptions opt;
    opt.check = false;
    opt.time = false;
    opt.cold_l2 = false;
    opt.seed = 12345;
    const auto r = kernels::run(p, variant, opt);
    if (!r.ok) {
      std::fprintf(stderr, "tilesim-run-one: %s\n", r.error.c_str());
      return 1;
    }
    std::printf("ran %s on %s: %lld programs, blocks %dx%dx%d\n", r.variant.c_str(),
                r.device.c_str(), (long long)r.programs, r.problem.block_m, r.problem.block_n,
                r.problem.block_k);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilesim-run-one: %s\n", e.what());
    return 2;
  }
  return 0;
}
