// `tilesim-cli run --triton FILE`'s measured line: the same file run with real Triton at the same
// launch on the preset's GPU (scripts/triton/run_file.py; scenario/triton_file_runs.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/triton_file_runs.hpp"

namespace tilesim::cli {

// The run of `path`'s kernel (`function`, or the file's only one) at the launch its "# launch:"
// comments and `words` give, among `runs`: same file name and the same launch once both are read
// by the Triton layer's rule (triton::apply_launch_word; a word's spelling does not matter).
// nullopt when none matches or the file does not read.
std::optional<scenario::TritonFileRun> find_triton_file_run(const scenario::TritonFileRuns& runs,
                                                            const std::string& path,
                                                            const std::string& function,
                                                            const std::vector<std::string>& words);

}  // namespace tilesim::cli
