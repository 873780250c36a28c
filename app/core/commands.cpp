// Applying commands to the model. Invalid edits keep the previous valid problem and record the
// field and message (sim::InvalidField), so the controls can show the error beside the field.
#include "app/core/commands.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <stop_token>
#include <string>
#include <thread>

#include "app/core/animation.hpp"
#include "scenario/machine_json.hpp"
#include "scenario/resolve.hpp"

namespace tilesim::app {
namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// Throws sim::InvalidField for a bad machine before anything changes, so the caller keeps what was
// open; a kernel that would not launch (shared memory) is still shown, replayed at the override
// or one program per SM (scenario::resolve).
void rebuild(AppModel& m, const sim::Problem& p) {
  scenario::Scenario s = m.scenario;
  s.problem = p.spec();
  auto resolved = scenario::resolve(s);
  const std::int64_t keep = m.position();
  m.problem = p;
  m.compare.reset();
  if (m.scenario.compare_order) {
    sim::ProblemSpec spec = p.spec();
    spec.order = *m.scenario.compare_order;
    m.compare.emplace(spec);  // only the order differs, so it is valid as well
  }
  m.machine = std::move(resolved.machine);
  m.occupancy = std::move(resolved.occupancy);
  if (!m.engine) m.engine = std::make_shared<EngineSession>();
  m.engine->open(p, m.machine, m.occupancy, m.event_order);
  m.engine->seek(keep);
  if (m.compare) {
    if (!m.engine_compare) m.engine_compare = std::make_shared<EngineSession>();
    m.engine_compare->open(*m.compare, m.machine, m.occupancy, m.event_order);
    m.engine_compare->seek(keep);
  } else {
    m.engine_compare.reset();
  }
}

void request_sweep(AppModel& m, SweepAxis axis) {
  const auto spec = m.problem.spec();
  const sim::Machine machine = m.machine;
  const auto pps = m.scenario.programs_per_sm;
  const auto key = sweep_key(spec, axis, machine, pps);
  m.jobs->sweep.request(key,
                        [spec, axis, machine, pps](std::stop_token st, std::atomic<double>& pr) {
                          return sweep_bars(spec, axis, machine, pps, st, pr);
                        });
}

void run_gpu(AppModel& m, const std::string& variant) {
  Jobs& j = *m.jobs;
  if (j.gpu.pending()) return;
  j.gpu.request("run" + std::to_string(++j.gpu_runs),
                [p = m.problem, variant](std::stop_token st, std::atomic<double>& pr) {
                  // The stop request reaches kernels::run between its timed launches.
                  std::atomic<bool> cancel{false};
                  const std::stop_callback on_stop(st, [&cancel] { cancel = true; });
                  kernels::RunOptions o;
                  o.cancel = &cancel;
                  auto run = run_on_gpu(p, variant, o);
                  pr = 1;
                  return run;
                });
}

void request_rung_predictions(AppModel& m, const std::vector<RungRow>& rows) {
  const sim::Machine machine = m.machine;
  const std::string key = rung_predictions_key(rows, scenario::machine_key(machine));
  m.jobs->rungs.request(key, [rows, machine](std::stop_token st, std::atomic<double>& pr) {
    return predict_rungs(rows, machine, st, pr);
  });
}

// The main session's timed event order, once its timeline is built (else null: play by events).
std::shared_ptr<const sim::EventOrder> timed_order(const AppModel& m) {
  const auto f = m.engine ? m.engine->frame() : nullptr;
  return f && f->order && f->order->timed() && f->order->kernel_ps() > 0 ? f->order : nullptr;
}

void set_status(AppModel& m, std::string text, bool error) {
  m.status = std::move(text);
  m.status_is_error = error;
}

// The open kernel file, read from `kernel` (null: read from s.triton_path now).
void attach_kernel(AppModel& m, const scenario::Scenario& s,
                   std::shared_ptr<const triton::LoadedKernel> kernel) {
  m.kernel_file.reset();
  if (s.triton_path.empty()) return;
  KernelFileState k;
  k.path = s.triton_path;
  k.function = s.triton_function;
  k.words = s.triton_args;
  note_file_time(k);
  try {
    k.kernel =
        kernel ? std::move(kernel) : scenario::load_kernel(k.path.string(), k.function, k.words);
  } catch (const std::exception& e) {
    set_status(m, e.what(), true);
    return;
  }
  m.kernel_file = std::move(k);
}

// OpenKernel and ReloadKernel: the read starts on the worker (the front end evaluates programs
// to recognise the problem: too slow for a frame); land_kernel_open applies it.
void request_kernel_read(AppModel& m, const KernelRequest& r, const std::string& key) {
  Jobs& j = *m.jobs;
  const bool started = j.kernel.request(key, [r](std::stop_token, std::atomic<double>& pr) {
    auto read = read_kernel_file(r);
    pr = 1;
    return read;
  });
  if (!started) return;  // that version is being read already, or its read was cancelled
  j.kernel_request = r;
  j.kernel_requested_at = std::chrono::steady_clock::now();
}

// A read the user has moved on from (another scenario opened): stopped, and a result that
// finished before this frame landed it is dropped too.
void drop_kernel_read(AppModel& m) {
  m.jobs->kernel.cancel();
  (void)m.jobs->kernel.take();
}

// The file read as the open problem. Throws sim::InvalidField when the open machine does not
// resolve for it; m is then unchanged. A reload keeps the position, compare order and machine.
void become_kernel(AppModel& m, KernelRead& r) {
  const KernelRequest& q = r.request;
  scenario::Scenario s = r.opened->scenario;
  // Saved scenarios name it wherever they are saved.
  s.triton_file = std::filesystem::absolute(q.path).lexically_normal().string();
  s.triton_function = q.function;
  s.triton_args = q.words;
  s.triton_path = q.path;
  s.machine = m.scenario.machine;
  s.custom_machine_json = m.scenario.custom_machine_json;
  s.compare_order = q.reload ? m.scenario.compare_order : std::nullopt;
  const std::int64_t keep = q.reload ? m.position() : 0;
  auto jobs = std::move(m.jobs);  // a GPU run in flight finishes; a sweep is rekeyed
  const auto order = m.event_order;
  scenario::Scenario unread = s;  // make_model would read the file again
  unread.triton_path.clear();
  try {
    m = make_model(unread, {}, order);
    m.scenario.triton_path = q.path;
  } catch (...) {
    m.jobs = std::move(jobs);
    throw;
  }
  m.jobs = std::move(jobs);
  attach_kernel(m, s, r.opened->kernel);
  if (m.kernel_file) {  // the version read, not the one on disk now: a save since reads again
    m.kernel_file->mtime = r.mtime;
    m.kernel_file->size = r.size;
  }
  if (keep) m.engine->seek(keep);
}

KernelLanding apply_kernel_read(AppModel& m, KernelRead r) {
  const KernelRequest& q = r.request;
  const bool same_file = m.kernel_file && m.kernel_file->path == q.path;
  if (q.reload && !same_file) return {};  // the file was left while it was read
  std::string error = r.error;
  if (r.opened) {
    try {
      become_kernel(m, r);
      set_status(m, (q.reload ? "Reloaded " : "Opened kernel ") + q.path.string(), false);
      return {true, {}};
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  // Keep what was open; a refusal of the open file itself is kept beside its last good read
  // (with the version refused, so the next save is what is read again).
  if (same_file) {
    m.kernel_file->error = error;
    m.kernel_file->mtime = r.mtime;
    m.kernel_file->size = r.size;
  }
  set_status(m,
             std::string(q.reload ? "Not reloaded: " : "Could not open the kernel: ") + error +
                 (m.kernel_file ? " (the last version that read stays open)"
                                : " (the previous scenario stays open)"),
             true);
  return {true, error};
}

}  // namespace

std::int64_t compare_target(const AppModel& m) {
  // Timed orders compare at the same simulated time (the orders run different events by then);
  // round orders at the same event.
  const std::int64_t pos = m.engine->position();
  if (!m.engine_compare) return pos;
  const auto a = m.engine->frame(), b = m.engine_compare->frame();
  // At the end of its run the first order is compared with the end of the other's: the slower
  // order's last stores come after the faster one's kernel time, and "so far" must then equal
  // "whole run" on both sides.
  if (a && b && a->order && b->order && pos >= a->order->events()) return b->order->events();
  if (a && b && a->position == pos && a->order && b->order && a->order->timed() &&
      b->order->timed())
    return b->order->position_at(a->snapshot.time_ps);
  return pos;
}

void sync_sessions(AppModel& m) {
  if (!m.engine_compare || !m.engine->settled()) return;
  const std::int64_t target = compare_target(m);
  if (m.engine_compare->position() != target) m.engine_compare->seek(target);
}

scenario::Scenario default_scenario() {
  scenario::Scenario s;
  s.name = "seed004_574_grouped";
  s.title = "Seed 004: 574 x 574 matmul, 64 x 64 x 64 blocks, GROUP_SIZE_M = 3";
  s.description = "81 programs; pid 29 computes tile (5, 0). Compare grouped with row-major.";
  s.problem = sim::ProblemSpec{};
  s.compare_order = sim::LaunchOrder::row_major;
  return s;
}

AppModel make_model(const scenario::Scenario& s, std::filesystem::path path,
                    sim::EventOrderKind order) {
  AppModel m;
  m.event_order = order;
  m.scenario = s;
  m.path = std::move(path);
  rebuild(m, scenario::problem_of(s));  // a kernel file's scenario steps through its own plan
  attach_kernel(m, s, nullptr);
  return m;
}

KernelLanding land_kernel_open(AppModel& m) {
  auto read = m.jobs->kernel.take();
  return read ? apply_kernel_read(m, std::move(*read)) : KernelLanding{};
}

KernelLanding finish_kernel_open(AppModel& m, double timeout_s) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (m.jobs->kernel.pending() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return land_kernel_open(m);
}

bool is_job_request(const Command& c) {
  return std::holds_alternative<RequestSweep>(c) || std::holds_alternative<QueryDevice>(c) ||
         std::holds_alternative<PredictRungs>(c);
}

void shut_down(AppModel& m) {
  // Ask everything first so the workers wind down together, then join.
  m.jobs->sweep.request_stop();
  m.jobs->gpu.request_stop();
  m.jobs->rungs.request_stop();
  m.jobs->kernel.request_stop();
  if (m.engine) m.engine->cancel();
  if (m.engine_compare) m.engine_compare->cancel();
  m.jobs->stop_and_join();
  m.engine.reset();
  m.engine_compare.reset();
}

void apply_command(AppModel& m, const Command& c) {
  std::visit(
      Overloaded{
          [&](const SetSpec& e) {
            try {
              // The file's own plan while the problem is still the file's, else the built-in's.
              scenario::Scenario next = m.scenario;
              next.problem = e.spec;
              const sim::Problem p = scenario::problem_of(next);
              if (m.kernel_file && !(e.spec == m.scenario.problem)) {
                // An edited problem is no longer the file's: the built-in listing takes over.
                set_status(m,
                           "The problem now differs from " + m.kernel_file->path.string() +
                               ": the built-in kernel's listing is shown",
                           false);
                m.kernel_file.reset();
                m.scenario.triton_file.clear();
                m.scenario.triton_function.clear();
                m.scenario.triton_args.clear();
                m.scenario.triton_path.clear();
                m.scenario.file_plan = {};
              }
              m.scenario.problem = e.spec;
              m.field_error.reset();
              rebuild(m, p);
            } catch (const sim::InvalidField& err) {
              m.field_error = FieldError{err.field(), err.what()};
            }
          },
          [&](const SetCompareOrder& e) {
            m.scenario.compare_order = e.order;
            rebuild(m, m.problem);
          },
          [&](const SetProgramsPerSm& e) {
            m.scenario.programs_per_sm = e.programs_per_sm;
            rebuild(m, m.problem);
          },
          [&](const SetMachine& e) {
            const std::string before = m.scenario.machine;
            m.scenario.machine = e.machine;
            try {
              rebuild(m, m.problem);
            } catch (const sim::InvalidField& err) {
              m.scenario.machine = before;  // keep what was open
              set_status(m, err.what(), true);
            }
          },
          [&](const StepBy& e) {
            m.engine->step(e.unit, e.dir);
            m.playing = false;
          },
          [&](const Seek& e) { m.engine->seek(e.position); },
          [&](const SeekPid& e) { m.engine->seek_pid(e.pid); },
          [&](const SeekHome&) {
            m.engine->seek(0);
            m.playing = false;
          },
          [&](const SeekEnd&) {
            m.engine->seek(m.events());
            m.playing = false;
          },
          [&](const TogglePlay&) {
            if (!m.playing && m.position() >= m.events()) m.engine->seek(0);
            m.playing = !m.playing;
            m.play_accum = 0;
            if (const auto order = timed_order(m)) m.play_time_ps = order->time_ps(m.position());
          },
          [&](const SetSpeed& e) { m.speed = std::clamp(e.events_per_second, 0.25, 100000.0); },
          [&](const SetEventOrder& e) {
            if (e.order == m.event_order) return;
            m.event_order = e.order;
            m.playing = false;
            rebuild(m, m.problem);
          },
          [&](const SetTimeRate& e) { m.ps_per_second = std::clamp(e.ps_per_second, 1.0, 1e12); },
          [&](const Advance& e) {
            if (!m.playing) return;
            if (const auto order = timed_order(m)) {
              // Simulated time advances; the position is the last event started by then.
              m.play_time_ps += e.seconds * m.ps_per_second;
              const AnimPoint at = anim_point(TimedClock(order), m.play_time_ps);
              m.play_accum = at.fraction;
              m.engine->seek(at.position);
              if (m.play_time_ps >= static_cast<double>(order->kernel_ps())) {
                m.engine->seek(m.events());
                m.playing = false;
              }
              return;
            }
            m.play_accum += e.seconds * m.speed;
            const auto whole = static_cast<std::int64_t>(m.play_accum);
            m.play_accum -= static_cast<double>(whole);
            if (whole > 0) m.engine->seek(m.position() + whole);
            if (m.position() >= m.events()) m.playing = false;
          },
          [&](const LoadScenario& e) {
            try {
              auto s = scenario::load_scenario(e.path);
              drop_kernel_read(m);            // the scenario chosen later wins
              auto jobs = std::move(m.jobs);  // a GPU run in flight finishes; a sweep is rekeyed
              m = make_model(s, e.path, m.event_order);
              m.jobs = std::move(jobs);
              set_status(m, "Opened " + e.path.string(), false);
            } catch (const std::exception& err) {
              set_status(m, err.what(), true);  // keep what was open
            }
          },
          [&](const SaveScenario& e) {
            try {
              scenario::Scenario s = m.scenario;
              if (s.name.empty()) s.name = e.path.stem().string();
              scenario::save_scenario(s, e.path);
              m.scenario = s;
              m.path = e.path;
              set_status(m, "Saved " + e.path.string(), false);
            } catch (const std::exception& err) {
              set_status(m, err.what(), true);
            }
          },
          [&](const OpenKernel& e) {
            land_kernel_open(m);  // a read finished and not landed yet is not overwritten unseen
            request_kernel_read(m, KernelRequest{e.path, e.function, e.words, false},
                                "open " + std::to_string(++m.jobs->kernel_opens));
          },
          [&](const ReloadKernel&) {
            land_kernel_open(m);
            if (!m.kernel_file || !kernel_file_changed(*m.kernel_file)) return;
            // A file being opened replaces this one: reading this one again would supersede it.
            if (m.jobs->kernel.pending() && !m.jobs->kernel_request.reload) return;
            const KernelFileState& k = *m.kernel_file;
            const KernelRequest r{k.path, k.function, k.words, true};
            request_kernel_read(m, r, reload_key(r));
          },
          [&](const CancelKernelOpen&) {
            if (!m.jobs->kernel.pending()) return;
            m.jobs->kernel.cancel();
            const KernelRequest& r = m.jobs->kernel_request;
            set_status(m,
                       std::string(r.reload ? "Stopped reloading " : "Stopped opening ") +
                           r.path.string() +
                           (m.kernel_file ? ": the last version that read stays open"
                                          : ": the open scenario stays"),
                       false);
          },
          [&](const Reset&) {
            m.engine->seek(0);
            m.playing = false;
            m.field_error.reset();
          },
          [&](const RequestSweep& e) { request_sweep(m, e.axis); },
          [&](const CancelSweep&) { m.jobs->sweep.cancel(); },
          [&](const QueryDevice&) {
            m.jobs->device.request("device", [](std::stop_token, std::atomic<double>&) {
              return kernels::query_device();
            });
          },
          [&](const RunOnGpu& e) { run_gpu(m, e.variant); },
          [&](const PredictRungs& e) { request_rung_predictions(m, e.rows); },
      },
      c);
}

}  // namespace tilesim::app
