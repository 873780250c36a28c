// The soak test's driver (see soak.hpp): each action of the plan becomes a few frames of input
// events (mouse, keys, characters) injected between the GLFW backend and ImGui::NewFrame, or a
// command / file the user could have given. A watchdog thread aborts a frame that never ends.
#include "app/soak.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
// A private copy of the PNG decoder (stb's static functions this file does not call are unused).
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>
#pragma GCC diagnostic pop
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "app/core/soak_plan.hpp"
#include "scenario/lesson.hpp"
#include "scenario/scenario.hpp"

// Quitting with jobs in flight must stop and join every worker. How soon a replay sees the stop is
// counted in events (tests/sim/cancel_test.cpp), not timed here: the watchdog gives the quit this
// long before calling it a hang (sanitizers and a shared CI machine make seconds meaningless).
constexpr double kQuitHangS = 300;

namespace tilesim::app {
namespace {

using Clock = std::chrono::steady_clock;

// The input the soak holds down this frame, in logical pixels.
struct Input {
  ImVec2 pos{-1, -1};
  bool down = false;
  int key = -1;
  bool shift = false;
  float wheel = 0;
  std::string chars;
};

std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::filesystem::path& p, const std::string& s) {
  std::ofstream(p, std::ios::binary) << s;
}

// Files a user could hand the app by mistake, each refused by its loader.
std::vector<std::filesystem::path> corrupt_files(const std::filesystem::path& dir,
                                                 const std::filesystem::path& good) {
  const std::string g = read_bytes(good);
  std::vector<std::pair<std::string, std::string>> files = {
      {"empty.json", ""},
      {"brace.json", "{"},
      {"truncated.json", g.substr(0, g.size() / 2)},
      {"garbage.json", std::string("\x89PNG\r\n\x1a\n\0\xff\xfe", 11)},
      {"array.json", "[1, 2, 3]"},
      {"types.json", R"({"name": 7, "problem": {"kernel": "matmul", "m": "abc"}})"},
      {"negative.json", R"({"name": "x", "problem": {"kernel": "matmul", "m": -5}})"},
      {"machine.json", R"({"name": "x", "problem": {}, "machine": "no_such_gpu"})"},
      {"lesson_steps.json", R"({"name": "x", "scenario": {"problem": {}}, "steps": 3})"},
      {"deep.json", std::string(2000, '[') + std::string(2000, ']')},
      {"huge_number.json", R"({"name": "x", "problem": {"m": 1e400}})"},
  };
  std::vector<std::filesystem::path> out;
  for (const auto& [name, text] : files) {
    write_bytes(dir / name, text);
    out.push_back(dir / name);
  }
  out.push_back(dir / "missing.json");
  out.push_back(dir);  // a folder
  return out;
}

std::vector<std::filesystem::path> json_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

class Soak {
 public:
  Soak(SoakTarget& t, const SoakOptions& o) : t(t), o(o), plan(o.seed) {}
  int run();

 private:
  void frame();
  void frames(int n) {
    for (int i = 0; i < n; ++i) frame();
  }
  void perform(const SoakAction& a);
  void fail(const std::string& why) {
    ++failures;
    std::fprintf(stderr, "soak: seed %llu, action %d (%s): %s\n", (unsigned long long)o.seed,
                 action.load(), current.c_str(), why.c_str());
  }
  void check_png(const std::filesystem::path& p);
  void open_kernel(const SoakAction& a);
  bool until_kernel_landed();
  void save_kernel(const std::string& text);
  void check_scenario_save(const std::filesystem::path& p);
  double quit_mid_job();
  void watch(double limit_s) {
    watch_limit_s = limit_s;
    frame_started_ns = Clock::now().time_since_epoch().count();
  }

  SoakTarget& t;
  const SoakOptions& o;
  SoakPlan plan;
  Input in;
  std::filesystem::path dir;
  std::vector<std::filesystem::path> scenarios, lessons, corrupt;
  std::vector<std::filesystem::path> kernels;          // bundled kernel files, opened in turn
  std::filesystem::path refused_kernel, saved_kernel;  // written in the soak's folder
  std::filesystem::file_time_type kernel_time{};       // the saved copy's time, moved on per save
  std::map<std::filesystem::path, std::string> saved;  // every file written, as written
  std::string current = "start";
  std::atomic<int> action{0};  // read by the watchdog
  int failures = 0;
  std::array<std::size_t, 4> opened{};  // scenarios, lessons, corrupt files, kernels so far
  int kernel_saves = 0;                 // saves of the open kernel file read back
  std::int64_t frame_count = 0;
  double longest_ms = 0;
  std::string longest_at;
  std::atomic<std::int64_t> frame_started_ns{0};  // 0 between frames (watchdog)
  std::atomic<double> watch_limit_s{0};           // what the watchdog allows the current frame
};

void Soak::frame() {
  const auto t0 = Clock::now();
  watch(o.frame_limit_s);
  t.frame([this](ImGuiIO& io) {
    io.MousePos = in.pos;
    io.MouseDown[0] = in.down;
    io.MouseWheel += in.wheel;
    if (in.key >= 0) io.KeysDown[in.key] = true;
    io.KeyShift = in.shift;
    for (char c : in.chars) io.AddInputCharacter(static_cast<unsigned char>(c));
  });
  // One-shot input: released after the frame that saw it.
  if (in.key >= 0) ImGui::GetIO().KeysDown[in.key] = false;
  in.key = -1;
  in.wheel = 0;
  in.chars.clear();
  frame_started_ns = 0;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  ++frame_count;
  if (ms > longest_ms) {
    longest_ms = ms;
    longest_at = current;
  }
}

void Soak::check_png(const std::filesystem::path& p) {
  if (t.ui.last_figure != p.string()) {
    fail("figure not written: " + t.ui.last_figure);
    return;
  }
  const std::string bytes = read_bytes(p);
  int w = 0, h = 0, comp = 0;
  unsigned char* px = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                            static_cast<int>(bytes.size()), &w, &h, &comp, 4);
  if (!px || w <= 0 || h <= 0) fail("figure " + p.string() + " does not decode");
  stbi_image_free(px);
  saved[p] = bytes;
}

void Soak::check_scenario_save(const std::filesystem::path& p) {
  if (t.model.status_is_error) {
    fail("save refused: " + t.model.status);
    return;
  }
  try {
    const auto back = scenario::load_scenario(p);
    if (!(back == t.model.scenario)) fail("saved scenario " + p.string() + " reloads different");
  } catch (const std::exception& e) {
    fail("saved scenario " + p.string() + " does not reload: " + e.what());
  }
  saved[p] = read_bytes(p);
}

void Soak::perform(const SoakAction& a) {
  const float W = t.plat.width(), H = t.plat.height();
  auto click_at = [&](float x, float y) {
    in.pos = ImVec2(x * W, y * H);
    frame();
    in.down = true;
    frame();
    in.down = false;
    frame();
  };
  switch (a.kind) {
    case SoakKind::key:
      in.key = a.key;
      in.shift = a.shift;
      frame();
      in.shift = false;
      frame();
      return;
    case SoakKind::click:
      click_at(a.x, a.y);
      return;
    case SoakKind::drag:
      in.pos = ImVec2(a.x * W, a.y * H);
      frame();
      in.down = true;
      for (int s = 0; s <= 4; ++s) {
        const float f = s / 4.0f;
        in.pos = ImVec2((a.x + (a.x2 - a.x) * f) * W, (a.y + (a.y2 - a.y) * f) * H);
        frame();
      }
      in.down = false;
      frame();
      return;
    case SoakKind::scroll:
      in.pos = ImVec2(a.x * W, a.y * H);
      in.wheel = static_cast<float>(a.value);
      frames(2);
      return;
    case SoakKind::type_text:
      click_at(a.x, a.y);
      in.chars = a.text;
      frame();
      in.key = GLFW_KEY_ENTER;
      frames(2);
      return;
    case SoakKind::edit_field:
      t.q.push(SetSpec{with_field(t.model.problem.spec(), a.field, a.value), a.field});
      frames(2);
      return;
    case SoakKind::set_tab: {
      constexpr PanelId tabs[] = {PanelId::launch_grid, PanelId::compare, PanelId::memory,
                                  PanelId::sweep,       PanelId::warps,   PanelId::gpu};
      t.ui.center_tab = tabs[a.index % 6];
      frames(2);
      return;
    }
    case SoakKind::open_scenario:
      if (scenarios.empty()) return;
      t.ui.lesson.reset();
      // In turn, so a run of a few hundred actions opens every one.
      t.q.push(LoadScenario{scenarios[opened[0]++ % scenarios.size()]});
      frames(2);
      return;
    case SoakKind::open_lesson:
      if (lessons.empty()) return;
      try {
        t.ui.lesson = open_lesson(lessons[opened[1]++ % lessons.size()].string());
      } catch (const std::exception& e) {
        fail(std::string("bundled lesson refused: ") + e.what());
      }
      frames(2);
      return;
    case SoakKind::close_lesson:
      t.ui.lesson.reset();
      frame();
      return;
    case SoakKind::lesson_step:
      if (t.ui.lesson && !t.ui.lesson->lesson.steps.empty())
        t.ui.lesson->requested = a.index % static_cast<int>(t.ui.lesson->lesson.steps.size());
      frames(3);
      return;
    case SoakKind::open_corrupt: {
      const auto& p = corrupt[opened[2]++ % corrupt.size()];
      if (a.shift) {
        try {
          (void)open_lesson(p.string());
          fail("corrupt lesson accepted: " + p.string());
        } catch (const std::exception&) {
        }
        return;
      }
      t.q.push(LoadScenario{p});
      frame();
      if (!t.model.status_is_error) fail("corrupt scenario accepted: " + p.string());
      frame();
      return;
    }
    case SoakKind::sweep_start:
      t.ui.center_tab = PanelId::sweep;
      t.ui.sweep_axis = static_cast<SweepAxis>(a.index % 2);
      frames(2);
      return;
    case SoakKind::sweep_cancel:
      t.q.push(CancelSweep{});
      frames(2);
      return;
    case SoakKind::save_png: {
      const auto p = dir / ("figure-" + std::to_string(action.load()) + ".png");
      std::optional<PanelId> panel;
      if (a.index % 3) panel = static_cast<PanelId>(a.index % kPanelCount);
      t.ui.capture = CaptureRequest{panel, p.string()};
      frame();
      check_png(p);
      return;
    }
    case SoakKind::save_scenario: {
      const auto p = dir / ("scenario-" + std::to_string(action.load()) + ".json");
      t.q.push(SaveScenario{p});
      frame();
      check_scenario_save(p);
      return;
    }
    case SoakKind::resize:
      glfwSetWindowSize(t.plat.window(), a.w, a.h);
      frames(3);
      return;
    case SoakKind::set_machine: {
      const auto presets = sim::machine_presets();
      t.q.push(SetMachine{presets[a.index % presets.size()].key});
      frames(2);
      return;
    }
    case SoakKind::open_kernel:
      t.ui.lesson.reset();
      open_kernel(a);
      return;
    case SoakKind::count:
      return;
  }
}

// Frames until the kernel file being read has landed (the frame loop lands it after the frame
// in which the read finished) and the open file, if saved since, has been read again; false if
// that has not happened after kKernelReadS.
bool Soak::until_kernel_landed() {
  constexpr double kKernelReadS = 120;  // a hang, not a slow read (sanitizers run 5-15x slower)
  const auto busy = [this] {
    return t.model.jobs->kernel.pending() ||
           (t.model.kernel_file && kernel_file_changed(*t.model.kernel_file));
  };
  const auto t0 = Clock::now();
  do {
    frame();
  } while (busy() && std::chrono::duration<double>(Clock::now() - t0).count() < kKernelReadS);
  if (busy()) return false;
  frame();  // lands a read that finished after the last frame looked
  return true;
}

// The soak's copy of seed 004's file saved as an editor would: new bytes and a later time (two
// saves within the clock's resolution must still read as two versions).
void Soak::save_kernel(const std::string& text) {
  write_bytes(saved_kernel, text);
  kernel_time += std::chrono::seconds(2);
  std::filesystem::last_write_time(saved_kernel, kernel_time);
  saved[saved_kernel] = text;
}

// A kernel file opened as File -> Open kernel does, read on the worker while frames are drawn.
void Soak::open_kernel(const SoakAction& a) {
  const std::string was_path = t.model.kernel_file ? t.model.kernel_file->path.string() : "";
  const scenario::Scenario was = t.model.scenario;
  switch (a.index % 4) {
    case 0: {  // refused: said with file:line:col, and what was open stays
      t.q.push(OpenKernel{refused_kernel, {}, {}});
      if (!until_kernel_landed()) return fail("the refused kernel file is still being read");
      const std::string want = refused_kernel.filename().string() + ":6:5: tl.atomic_add";
      if (!t.model.status_is_error || t.model.status.find(want) == std::string::npos)
        fail("a refused kernel file was not named with its line: " + t.model.status);
      if (!(t.model.scenario == was) ||
          was_path != (t.model.kernel_file ? t.model.kernel_file->path.string() : ""))
        fail("a refused kernel file changed what was open");
      return;
    }
    case 1: {  // seed 004's copy, opened, then saved twice while its reload may be running
      const std::string text =
          read_bytes(scenario::assets_dir() / "kernels" / "seed004_grouped_matmul.py");
      const auto with_group = [&](int g) {
        std::string edited = text;
        const auto at = edited.find("GROUP_SIZE_M=3 grid");
        if (at != std::string::npos) edited.replace(at, 14, "GROUP_SIZE_M=" + std::to_string(g));
        return edited;
      };
      save_kernel(text);
      t.q.push(OpenKernel{saved_kernel, {}, {}});
      if (!until_kernel_landed()) return fail("seed 004's kernel file is still being read");
      if (!t.model.kernel_file || t.model.kernel_file->path != saved_kernel ||
          t.model.status_is_error)
        return fail("seed 004's kernel file did not open: " + t.model.status);
      const int first = 1 + a.index % 4, last = 5 + a.index % 4;
      save_kernel(with_group(first));
      // The look for saves comes twice a second (30 frames here); the second save lands while
      // the first one's read runs, or just after it.
      for (int i = 0; i < 60 && !t.model.jobs->kernel.pending(); ++i) frame();
      save_kernel(with_group(last));
      if (!until_kernel_landed()) return fail("a saved kernel file is still being read");
      ++kernel_saves;
      if (!t.model.kernel_file || !t.model.kernel_file->error.empty() ||
          t.model.problem.spec().group_size_m != last)
        fail("the last save of the kernel file is not what is shown (GROUP_SIZE_M " +
             std::to_string(t.model.problem.spec().group_size_m) + ", want " +
             std::to_string(last) + "): " + t.model.status);
      return;
    }
    default: {  // the next bundled file: it opens, or its refusal names file:line:col
      if (kernels.empty()) return;
      const auto& p = kernels[opened[3]++ % kernels.size()];
      t.q.push(OpenKernel{p, {}, {}});
      if (!until_kernel_landed()) return fail(p.filename().string() + " is still being read");
      const bool opened_it =
          t.model.kernel_file && t.model.kernel_file->path == p && !t.model.status_is_error;
      const std::string named = p.filename().string() + ":";
      const auto at = t.model.status.find(named);
      const bool refused_by_line =
          t.model.status_is_error && at != std::string::npos &&
          std::isdigit(static_cast<unsigned char>(t.model.status[at + named.size()]));
      if (!opened_it && !refused_by_line)
        fail(p.filename().string() + " neither opened nor was refused by line: " + t.model.status);
      return;
    }
  }
}

// Starts a big timeline build, a sweep and a GPU run, then stops everything as quitting does and
// checks that every worker was joined. Returns the seconds the stop took (printed, not bounded:
// the watchdog catches a hang).
double Soak::quit_mid_job() {
  current = "quit with jobs in flight";
  t.ui.lesson.reset();
  sim::ProblemSpec big;
  big.m = big.n = big.k = 4096;
  t.q.push(SetSpec{big, "m"});
  t.q.push(RequestSweep{SweepAxis::block_size});
  t.q.push(RunOnGpu{"matmul_simt"});
  // A kernel file at 8192^3: a read the front end takes a while over, in flight at the quit.
  t.q.push(OpenKernel{
      scenario::assets_dir() / "kernels" / "seed004_grouped_matmul.py",
      {},
      {"a_ptr=8192x8192:fp16", "b_ptr=8192x8192:fp16", "c_ptr=8192x8192:fp16", "M=8192", "N=8192",
       "K=8192", "stride_am=8192", "stride_bk=8192", "stride_cm=8192", "grid=16384"}});
  t.ui.center_tab = PanelId::sweep;
  frames(2);
  if (!t.model.jobs->sweep.pending()) fail("the sweep was not running at quit");
  const auto t0 = Clock::now();
  watch(kQuitHangS);
  shut_down(t.model);
  t.ui.warps_job.stop_and_join();
  frame_started_ns = 0;
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  const Jobs& j = *t.model.jobs;
  const std::size_t left = j.sweep.threads() + j.device.threads() + j.gpu.threads() +
                           j.rungs.threads() + j.kernel.threads() + t.ui.warps_job.threads();
  if (left) fail("quitting left " + std::to_string(left) + " worker threads unjoined");
  if (t.model.engine || t.model.engine_compare) fail("quitting left an engine session");
  return s;
}

int Soak::run() {
  dir = std::filesystem::temp_directory_path() /
        ("tilesim-soak-" + std::to_string(o.seed) + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Saves the walk makes through the window's own buttons and path fields (relative names) land
  // in the soak's folder, not wherever the test was started.
  const auto started_in = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  glfwSwapInterval(0);  // no waiting for a vertical blank that Xvfb does not have
  scenarios = json_files(scenario::assets_dir() / "scenarios");
  for (const auto& e : scenario::list_lessons(scenario::assets_dir() / "lessons"))
    lessons.push_back(e.path);
  corrupt = corrupt_files(dir, scenarios.empty() ? dir / "none.json" : scenarios.front());
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(scenario::assets_dir() / "kernels", ec))
    if (e.path().extension() == ".py") kernels.push_back(e.path());
  std::sort(kernels.begin(), kernels.end());
  // Outside the subset on line 6, column 5 (the front end names it so).
  refused_kernel = dir / "refused_kernel.py";
  write_bytes(refused_kernel,
              "import triton\nimport triton.language as tl\n\n@triton.jit\n"
              "def k(x_ptr):\n    tl.atomic_add(x_ptr, 1)\n");
  saved_kernel = dir / "soak_kernel.py";
  kernel_time = std::filesystem::file_time_type::clock::now();

  // The watchdog: a frame past the limit is a hang; abort so the sanitizer prints the stacks.
  std::atomic<bool> done{false};
  std::jthread watchdog([&] {
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const auto started = frame_started_ns.load();
      if (!started) continue;
      const double s =
          std::chrono::duration<double>(Clock::now().time_since_epoch() - Clock::duration(started))
              .count();
      if (s > watch_limit_s) {
        std::fprintf(stderr, "soak: seed %llu: %s hung for %.0f s at action %d\n",
                     (unsigned long long)o.seed,
                     action < o.actions ? "a frame" : "quitting with jobs in flight", s,
                     action.load());
        std::abort();
      }
    }
  });
  const auto t0 = Clock::now();
  std::int64_t max_rss = 0;
  for (action = 0; action < o.actions; ++action) {
    const SoakAction a = plan.next();
    current = describe(a);
    perform(a);
    if (action % 16 == 0) {
      max_rss = std::max(max_rss, rss_bytes());
      if (max_rss > o.max_rss_mib * 1024 * 1024)
        fail("resident memory " + std::to_string(max_rss >> 20) + " MiB past the bound");
    }
  }
  const double quit_s = quit_mid_job();
  done = true;
  // Every file saved is still there, byte for byte.
  for (const auto& [p, bytes] : saved)
    if (read_bytes(p) != bytes) fail("saved file " + p.string() + " changed or vanished");
  const double total_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf(
      "soak: seed %llu: %d actions, %lld frames in %.1f s; peak memory %lld MiB (bound %lld); "
      "longest frame %.0f ms (%s); %zu saves checked; opened %zu scenarios (of %zu), %zu "
      "lessons (of %zu), %zu corrupt files (of %zu), %zu kernel files (of %zu); %d kernel "
      "files saved twice mid-reload; quit with jobs in flight %.0f ms; %d failures\n",
      (unsigned long long)o.seed, o.actions, (long long)frame_count, total_s,
      (long long)(peak_rss_bytes() >> 20), (long long)o.max_rss_mib, longest_ms, longest_at.c_str(),
      saved.size(), opened[0], scenarios.size(), opened[1], lessons.size(), opened[2],
      corrupt.size(), opened[3], kernels.size(), kernel_saves, quit_s * 1e3, failures);
  std::filesystem::current_path(started_in, ec);
  if (!failures) std::filesystem::remove_all(dir, ec);
  return failures ? 1 : 0;
}

}  // namespace

int run_soak(SoakTarget& t, const SoakOptions& o) {
  return Soak(t, o).run();
}

}  // namespace tilesim::app
