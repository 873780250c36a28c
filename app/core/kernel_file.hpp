// The Triton kernel file the app has open (File -> Open kernel, --triton, a scenario's
// "triton_file"): its last good read, the refusal of a later save, and what the panels ask of it
// — each of sim's steps of a program as the file's line and the evaluator's record. Watched for
// saves: a new version is re-read, a broken one is shown and the last good one kept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scenario/kernel_file.hpp"
#include "sim/program/plan_from_records.hpp"

namespace tilesim::app {

struct KernelFileState {
  std::filesystem::path path;  // as found (absolute or relative to the working directory)
  std::string function;
  std::vector<std::string> words;  // launch words over the file's "# launch:" comments
  std::filesystem::file_time_type mtime{};
  std::uintmax_t size = 0;
  std::shared_ptr<const triton::LoadedKernel> kernel;  // the last version that opened
  // The latest refusal ("kernel.py:14:9: tl.atomic_add is not supported yet"); empty while the
  // file on disk is the version shown.
  std::string error;

  const std::vector<std::string>& lines() const { return kernel->source->lines; }
  // Sim's steps of program `pid` in the file (scenario::kernel_file_steps), evaluated once per
  // pid and kept (UI thread only). Empty when the program does not evaluate.
  const std::vector<scenario::KernelFileStep>& steps(const sim::ProblemSpec& spec,
                                                     std::int64_t pid) const;
  // While playing, a program that takes long to evaluate (a big K loop: over kSlowEvalMs) is not
  // evaluated every frame: program 0's steps stand in (every program's steps are sim's same
  // steps, so their lines are program 0's in a kernel whose lines do not depend on pid), and
  // *exact says whether they are `pid`'s own.
  static constexpr double kSlowEvalMs = 2.0;
  const std::vector<scenario::KernelFileStep>& steps_while(const sim::ProblemSpec& spec,
                                                           std::int64_t pid, bool playing,
                                                           bool* exact) const;
  // Where a step's load or store built its pointers and its mask in the file (0: none), and the
  // names its pointers broadcast: sim::access_source, the rule the file's plan follows.
  sim::AccessSource access_source(const scenario::KernelFileStep& s) const;
  // The file's measured run on `machine_key`'s GPU (assets/measured/triton_files_KEY.json), kept
  // per machine.
  const scenario::TritonFileRun* measured_run(const std::string& machine_key) const;

 private:
  mutable std::int64_t m_pid = -1;
  mutable std::vector<scenario::KernelFileStep> m_steps;
  mutable double m_eval_ms = 0;                            // the last evaluation's time
  mutable std::vector<scenario::KernelFileStep> m_steps0;  // program 0's, once evaluated
  mutable bool m_have_steps0 = false;
  mutable std::string m_run_key;
  mutable std::optional<scenario::TritonFileRun> m_run;
};

// The file's state read now: its time and size, which change when it is saved.
bool kernel_file_changed(const KernelFileState& k);
// Records the file's time and size as seen now.
void note_file_time(KernelFileState& k);

// Reading a kernel file is the slow half of opening it (0.1-0.2 s at an 8192^3 launch, more for
// big grids: the front end evaluates programs to recognise the problem), so it runs on a worker
// (Jobs::kernel) and its outcome is applied to the model between frames (land_kernel_open).
struct KernelRequest {
  std::filesystem::path path;
  std::string function;
  std::vector<std::string> words;
  bool reload = false;  // a save of the open file: lands only while that file is still open
};
struct KernelRead {
  KernelRequest request;
  // The file's time and size looked at before it was read: a save during the read leaves the
  // file different from these, so the next look reads it again and no save is missed.
  std::filesystem::file_time_type mtime{};
  std::uintmax_t size = 0;
  std::optional<scenario::OpenedKernel> opened;  // nullopt: refused, and why in `error`
  std::string error;  // "kernel.py:14:9: tl.atomic_add is not supported yet"
};
// Worker side: reads, evaluates and recognises the file (scenario::open_kernel_file); a refusal
// is returned, not thrown.
KernelRead read_kernel_file(const KernelRequest& r);
// The job key of a reload: the file, its launch and the version on disk now, so the twice-a-second
// look for a save does not restart a read of the same version, and a newer save supersedes it.
std::string reload_key(const KernelRequest& r);

}  // namespace tilesim::app
