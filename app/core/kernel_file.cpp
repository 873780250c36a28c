// The open kernel file (see kernel_file.hpp).
#include "app/core/kernel_file.hpp"

#include <chrono>

#include "scenario/triton_file_runs.hpp"

namespace tilesim::app {

const std::vector<scenario::KernelFileStep>& KernelFileState::steps(const sim::ProblemSpec& spec,
                                                                    std::int64_t pid) const {
  if (pid != m_pid) {
    m_pid = pid;
    m_steps.clear();
    const auto t0 = std::chrono::steady_clock::now();
    try {
      m_steps = scenario::kernel_file_steps(*kernel, spec, pid);
    } catch (const std::exception&) {  // the bridge evaluated it already; kept empty if not
    }
    m_eval_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (pid == 0) {
      m_steps0 = m_steps;
      m_have_steps0 = true;
    }
  }
  return m_steps;
}

const std::vector<scenario::KernelFileStep>& KernelFileState::steps_while(
    const sim::ProblemSpec& spec, std::int64_t pid, bool playing, bool* exact) const {
  *exact = true;
  if (pid == m_pid || !playing || m_eval_ms <= kSlowEvalMs) return steps(spec, pid);
  if (!m_have_steps0) {
    const std::int64_t keep = m_pid;
    auto kept = std::move(m_steps);
    steps(spec, 0);
    m_pid = keep;
    m_steps = std::move(kept);
  }
  *exact = false;
  return m_steps0;
}

sim::AccessSource KernelFileState::access_source(const scenario::KernelFileStep& s) const {
  if (!s.record) return {};
  const auto& r = *s.record;
  if (r.kind != triton::RecordKind::load && r.kind != triton::RecordKind::store) return {};
  return sim::access_source(kernel->source->fn, r.pos, r.kind == triton::RecordKind::store,
                            r.access.has_mask);
}

const scenario::TritonFileRun* KernelFileState::measured_run(const std::string& machine_key) const {
  if (machine_key != m_run_key) {
    m_run_key = machine_key;
    m_run.reset();
    if (const auto* runs = scenario::bundled_triton_file_runs(machine_key))
      m_run = scenario::find_triton_file_run(*runs, *kernel, path.string());
  }
  return m_run ? &*m_run : nullptr;
}

bool kernel_file_changed(const KernelFileState& k) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(k.path, ec);
  if (ec) return false;  // gone for a moment (an editor's save): look again later
  const auto size = std::filesystem::file_size(k.path, ec);
  return !ec && (t != k.mtime || size != k.size);
}

void note_file_time(KernelFileState& k) {
  std::error_code ec;
  k.mtime = std::filesystem::last_write_time(k.path, ec);
  k.size = std::filesystem::file_size(k.path, ec);
}

KernelRead read_kernel_file(const KernelRequest& r) {
  KernelRead out;
  out.request = r;
  std::error_code ec;
  out.mtime = std::filesystem::last_write_time(r.path, ec);
  out.size = std::filesystem::file_size(r.path, ec);
  try {
    out.opened = scenario::open_kernel_file(r.path.string(), r.function, r.words);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

std::string reload_key(const KernelRequest& r) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(r.path, ec);
  const auto size = std::filesystem::file_size(r.path, ec);
  std::string key = "reload " + r.path.string() + "|" + r.function;
  for (const auto& w : r.words) key += "|" + w;
  return key + "|" + std::to_string(t.time_since_epoch().count()) + "|" + std::to_string(size);
}

}  // namespace tilesim::app
