// Sweep settings and their first-wave footprints (see sweep.hpp).
#include "app/core/sweep.hpp"

#include <algorithm>

#include "sim/footprint.hpp"

namespace tilesim::app {

std::vector<sim::ProblemSpec> sweep_settings(const sim::ProblemSpec& base, SweepAxis axis) {
  std::vector<sim::ProblemSpec> out;
  auto add = [&](sim::ProblemSpec s) {
    try {
      sim::Problem p(s);
      out.push_back(s);
    } catch (const sim::InvalidField&) {
    }
  };
  if (axis == SweepAxis::group_size_m) {
    sim::ProblemSpec s = base;
    s.order = sim::LaunchOrder::row_major;
    add(s);
    std::vector<std::int64_t> sizes = {1, 2, 4, 8, 16, 32, 64};
    if (std::find(sizes.begin(), sizes.end(), base.group_size_m) == sizes.end()) {
      sizes.push_back(base.group_size_m);
      std::sort(sizes.begin(), sizes.end());
    }
    for (std::int64_t g : sizes) {
      s = base;
      if (s.order == sim::LaunchOrder::row_major || s.order == sim::LaunchOrder::column_major)
        s.order = sim::LaunchOrder::grouped;
      s.group_size_m = g;
      add(s);
    }
  } else {
    for (int bm : {32, 64, 128})
      for (int bn : {32, 64, 128})
        for (int bk : {32, 64}) {
          sim::ProblemSpec s = base;
          s.block_m = bm;
          s.block_n = bn;
          s.block_k = bk;
          if (base.kernel != sim::Kernel::matmul && bk != 32) continue;
          add(s);
        }
  }
  return out;
}

std::vector<SweepBar> run_sweep(const sim::ProblemSpec& base, SweepAxis axis,
                                std::int64_t wave_programs, std::stop_token stop,
                                std::atomic<double>& progress) {
  std::vector<SweepBar> out;
  const auto settings = sweep_settings(base, axis);
  for (std::size_t i = 0; i < settings.size(); ++i) {
    if (stop.stop_requested()) return out;
    const sim::Problem p(settings[i]);
    SweepBar b;
    b.spec = settings[i];
    if (axis == SweepAxis::group_size_m)
      b.label = settings[i].order == sim::LaunchOrder::row_major
                    ? "row-major"
                    : "G=" + std::to_string(settings[i].group_size_m);
    else
      b.label = std::to_string(settings[i].block_m) + "x" + std::to_string(settings[i].block_n) +
                (base.kernel == sim::Kernel::matmul ? "x" + std::to_string(settings[i].block_k) : "");
    b.programs = std::min(wave_programs, p.programs());
    const auto f = sim::footprint(p, b.programs);
    b.tiles = f.tiles;
    b.bytes = f.bytes;
    b.is_current = settings[i] == base;
    out.push_back(b);
    progress = double(i + 1) / double(settings.size());
  }
  return out;
}

std::string sweep_key(const sim::ProblemSpec& b, SweepAxis axis, std::int64_t wave) {
  return std::to_string(int(b.kernel)) + ":" + std::to_string(b.m) + "x" + std::to_string(b.n) +
         "x" + std::to_string(b.k) + ":" + std::to_string(int(b.dtype)) + ":" +
         std::to_string(int(b.b_layout)) + ":" + std::to_string(b.block_m) + "," +
         std::to_string(b.block_n) + "," + std::to_string(b.block_k) + ":" +
         std::to_string(b.group_size_m) + ":" + std::to_string(int(b.order)) + ":" +
         std::to_string(int(b.boundary)) + ":" + std::to_string(int(axis)) + ":" +
         std::to_string(wave);
}

}  // namespace tilesim::app
