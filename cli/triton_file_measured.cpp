// The measured run of a Triton file at its launch (see triton_file_measured.hpp).
#include "cli/triton_file_measured.hpp"

#include <filesystem>
#include <sstream>

#include "triton/kernel_file.hpp"
#include "triton/launch.hpp"

namespace tilesim::cli {

std::optional<scenario::TritonFileRun> find_triton_file_run(const scenario::TritonFileRuns& runs,
                                                            const std::string& path,
                                                            const std::string& function,
                                                            const std::vector<std::string>& words) {
  try {
    const triton::LoadedKernel k = triton::load_kernel_file(path, function, words);
    const std::string name = std::filesystem::path(path).filename().string();
    const std::string ours = triton::describe(k.ev->launch());
    for (const scenario::TritonFileRun& r : runs.runs) {
      if (r.file != name || r.function != k.source->fn.name) continue;
      // The run's words over the file's own comments, read as the simulator reads them.
      triton::Launch theirs = triton::launch_from_comments(*k.source);
      std::istringstream in(r.launch);
      for (std::string w; in >> w;) triton::apply_launch_word(w, &theirs, r.file);
      if (triton::describe(theirs) == ours) return r;
    }
  } catch (const std::exception&) {  // a file or record that does not read matches nothing
  }
  return std::nullopt;
}

}  // namespace tilesim::cli
