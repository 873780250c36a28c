// The soak test's random walk (see soak_plan.hpp): every draw comes from one mt19937_64, so a seed
// replays the same actions on every machine (std::uniform_*_distribution is avoided: its output
// differs between standard libraries).
#include "app/core/soak_plan.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <vector>

namespace tilesim::app {
namespace {

// GLFW key codes (glfw3.h is not included in the window-free core).
constexpr std::array<int, 8> kKeys = {32 /*space*/, 262 /*right*/, 263 /*left*/, 268 /*home*/,
                                      269 /*end*/,  265 /*up*/,    264 /*down*/, 258 /*tab*/};
// Sizes as typed, out-of-range ones included (negative, zero, past any GPU's memory).
constexpr std::array<std::int64_t, 14> kSizes = {
    -1, 0, 1, 3, 16, 33, 64, 100, 574, 1000, 2048, 4096, -64, std::int64_t(1) << 40};
constexpr std::array<std::int64_t, 12> kBlocks = {-8, 0,   1,   16,   24, 32,
                                                  64, 128, 256, 1024, 3,  1 << 20};
constexpr std::array<std::int64_t, 9> kSmall = {-1, 0, 1, 2, 3, 4, 8, 64, 100000};
constexpr std::array<const char*, 8> kTexts = {"1",           "-5", "0", "abc",
                                               "99999999999", "64", "",  "1e9"};

std::int64_t read_status_kib(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string k = key;
  while (std::getline(in, line))
    if (line.compare(0, k.size(), k) == 0) {
      std::istringstream s(line.substr(k.size()));
      std::int64_t kib = 0;
      s >> kib;
      return kib;
    }
  return 0;
}

}  // namespace

const std::vector<std::string>& soak_fields() {
  static const std::vector<std::string> f = {
      "kernel",   "m",       "n",       "k",         "dtype",
      "b_layout", "block_m", "block_n", "block_k",   "group_size_m",
      "boundary", "order",   "stages",  "num_warps", "input_precision"};
  return f;
}

sim::ProblemSpec with_field(sim::ProblemSpec s, const std::string& f, std::int64_t v) {
  const auto mod = [v](int n) { return static_cast<int>(((v % n) + n) % n); };
  const auto narrow = [v] {
    return static_cast<int>(std::clamp<std::int64_t>(v, -(1 << 30), 1 << 30));
  };
  if (f == "kernel") s.kernel = static_cast<sim::Kernel>(mod(3));
  if (f == "m") s.m = v;
  if (f == "n") s.n = v;
  if (f == "k") s.k = v;
  if (f == "dtype") s.dtype = static_cast<sim::DType>(mod(4));
  if (f == "b_layout") s.b_layout = static_cast<sim::BLayout>(mod(2));
  if (f == "block_m") s.block_m = narrow();
  if (f == "block_n") s.block_n = narrow();
  if (f == "block_k") s.block_k = narrow();
  if (f == "group_size_m") s.group_size_m = v;
  if (f == "boundary") s.boundary = static_cast<sim::Boundary>(mod(2));
  if (f == "order") s.order = static_cast<sim::LaunchOrder>(mod(4));
  if (f == "stages") s.stages = narrow();
  if (f == "num_warps") s.num_warps = narrow();
  if (f == "input_precision") s.input_precision = static_cast<sim::InputPrecision>(mod(2));
  return s;
}

SoakAction SoakPlan::next() {
  auto below = [&](std::uint64_t n) { return static_cast<int>(m_rng() % n); };
  auto frac = [&] { return static_cast<float>(m_rng() % 10000) / 10000.0f; };
  SoakAction a;
  // Weights: input events most often (they reach every widget), files and jobs less.
  // key click drag scroll type edit tab scenario lesson close step corrupt sweep cancel png save
  // resize machine kernel
  // (Seed 1 must still reach every bundled scenario and lesson within the sanitizer builds' 250
  // actions: jobs_test.cpp checks it.)
  static constexpr std::array<int, int(SoakKind::count)> kWeight = {10, 16, 6, 3, 4, 10, 5, 7, 4, 1,
                                                                    3,  3,  2, 2, 2, 2,  2, 1, 2};
  int total = 0;
  for (int w : kWeight) total += w;
  int pick = below(total), kind = 0;
  while (pick >= kWeight[kind]) pick -= kWeight[kind++];
  a.kind = static_cast<SoakKind>(kind);
  a.x = frac();
  a.y = frac();
  a.x2 = frac();
  a.y2 = frac();
  a.key = kKeys[below(kKeys.size())];
  a.shift = below(4) == 0;
  a.index = below(1000);
  const auto& fields = soak_fields();
  a.field = fields[below(fields.size())];
  if (a.field == "m" || a.field == "n" || a.field == "k")
    a.value = kSizes[below(kSizes.size())];
  else if (a.field.rfind("block_", 0) == 0)
    a.value = kBlocks[below(kBlocks.size())];
  else
    a.value = kSmall[below(kSmall.size())];
  if (a.kind == SoakKind::scroll) a.value = below(7) - 3;
  a.text = kTexts[below(kTexts.size())];
  a.w = 640 + below(1300);
  a.h = 400 + below(800);
  return a;
}

std::string describe(const SoakAction& a) {
  static constexpr std::array<const char*, int(SoakKind::count)> kNames = {
      "key",           "click",        "drag",          "scroll",       "type_text",
      "edit_field",    "set_tab",      "open_scenario", "open_lesson",  "close_lesson",
      "lesson_step",   "open_corrupt", "sweep_start",   "sweep_cancel", "save_png",
      "save_scenario", "resize",       "set_machine",   "open_kernel"};
  std::ostringstream s;
  s << kNames[int(a.kind)];
  switch (a.kind) {
    case SoakKind::key:
      s << " " << a.key << (a.shift ? " +shift" : "");
      break;
    case SoakKind::click:
    case SoakKind::scroll:
      s << " at " << a.x << "," << a.y;
      break;
    case SoakKind::drag:
      s << " " << a.x << "," << a.y << " -> " << a.x2 << "," << a.y2;
      break;
    case SoakKind::type_text:
      s << " '" << a.text << "' at " << a.x << "," << a.y;
      break;
    case SoakKind::edit_field:
      s << " " << a.field << "=" << a.value;
      break;
    case SoakKind::resize:
      s << " " << a.w << "x" << a.h;
      break;
    default:
      s << " #" << a.index;
  }
  return s.str();
}

std::int64_t peak_rss_bytes() {
  return read_status_kib("VmHWM:") * 1024;
}
std::int64_t rss_bytes() {
  return read_status_kib("VmRSS:") * 1024;
}

}  // namespace tilesim::app
