// A Triton kernel file as a scenario: read through the front end (triton/kernel_file.hpp), its
// problem recognised by the bridge (the ProblemSpec sim replays), and each of sim's steps of a
// program traced back to the file's own line and record. One home for what tilesim-cli's --triton,
// the app's File -> Open kernel and a scenario's "triton_file" share.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "scenario/triton_file_runs.hpp"
#include "sim/program/problem.hpp"
#include "triton/bridge.hpp"
#include "triton/kernel_file.hpp"

namespace tilesim::scenario {

struct OpenedKernel {
  std::shared_ptr<const triton::LoadedKernel> kernel;
  triton::Inference inference;
  Scenario scenario;  // name (the file's stem), title, description (how it was recognised), problem
};
// Reads, evaluates and recognises `path`'s kernel at the launch of its "# launch:" comments and
// `words`. Throws triton::SourceError ("file:line:col: reason") when the file is outside the
// subset or sim cannot model it.
OpenedKernel open_kernel_file(const std::string& path, const std::string& function = {},
                              const std::vector<std::string>& words = {});
// The same, read without recognising it (no program evaluated): what a scenario already
// recognised needs to show its source.
std::shared_ptr<const triton::LoadedKernel> load_kernel(const std::string& path,
                                                        const std::string& function = {},
                                                        const std::vector<std::string>& words = {});

// One of sim's steps of a program, in the file: its line and the evaluator's record (a load,
// store, dot or trans; none for the pid -> tile step, whose line assigns pid_n, else pid_m,
// else is the function's first statement). Index = sim's step.
struct KernelFileStep {
  int line = 0;
  std::optional<triton::Record> record;
};
// The bridge matched sim's steps to the records in this order (a transpose's trans is its own
// step; the .T of a matmul operand is not).
std::vector<KernelFileStep> kernel_file_steps(const triton::LoadedKernel& k,
                                              const sim::ProblemSpec& spec, std::int64_t pid);

// The text of argument `index` (0-based, positional) or of keyword `keyword` of the call on line
// `line` of `lines` that starts at column `col` (1-based, as records give it): "a_ptrs",
// "offs_k[None, :] < K". Empty when there is none. Reads the source's text, brackets balanced.
std::string call_argument(const std::vector<std::string>& lines, int line, int col, int index,
                          const std::string& keyword = {});
// Line `line` (1-based) of `lines` as a listing quotes it: leading blanks and a trailing
// "  # comment" dropped; empty outside the file.
std::string source_line(const std::vector<std::string>& lines, int line);

// The kernel files bundled under assets/kernels/ that a user can open (File -> Open kernel's
// list), sorted: every .py but the built-in listings' templates, whose {launch_order} block sim
// fills in (sim/program/listing.hpp) and which are no file Triton could run.
std::vector<std::filesystem::path> bundled_kernel_files();

// Where a scenario's "triton_file" lives: as written when absolute; else beside the scenario
// (`scenario_dir`, when given), else under the bundled assets ("assets/kernels/x.py" and
// "kernels/x.py" both name assets/kernels/x.py). The first that exists; empty when none does.
std::filesystem::path resolve_kernel_path(const std::string& written,
                                          const std::filesystem::path& scenario_dir = {});

// The run of `k` among `runs` (scenario/triton_file_runs.hpp): same file name and function, the
// same launch once both are read by the Triton layer's rule (triton::apply_launch_word; a
// word's spelling does not matter). nullopt when none matches.
std::optional<TritonFileRun> find_triton_file_run(const TritonFileRuns& runs,
                                                  const triton::LoadedKernel& k,
                                                  const std::string& path);
// The same for a file not read yet (nullopt too when it does not read).
std::optional<TritonFileRun> find_triton_file_run(const TritonFileRuns& runs,
                                                  const std::string& path,
                                                  const std::string& function,
                                                  const std::vector<std::string>& words);

}  // namespace tilesim::scenario
