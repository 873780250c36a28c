// `tilesim-cli trace --pid P`: that program's steps with listing lines, offsets, masks and bytes.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "scenario/kernel_file.hpp"
#include "scenario/resolve.hpp"
#include "sim/program/listing.hpp"
#include "sim/program/program_trace.hpp"
#include "triton/kernel_file.hpp"

namespace tilesim::cli {
namespace {

nlohmann::json offsets_json(const sim::TileAccess& a) {
  auto rows = nlohmann::json::array();
  for (int i = 0; i < a.rows(); ++i) {
    auto r = nlohmann::json::array();
    for (int j = 0; j < a.cols(); ++j) r.push_back(a.offset(i, j));
    rows.push_back(std::move(r));
  }
  return rows;
}

nlohmann::json mask_json(const sim::TileAccess& a) {
  auto rows = nlohmann::json::array();
  for (int i = 0; i < a.rows(); ++i) {
    auto r = nlohmann::json::array();
    for (int j = 0; j < a.cols(); ++j) r.push_back(a.valid(i, j));
    rows.push_back(std::move(r));
  }
  return rows;
}

// A readable corner of a matrix: up to 4 rows and 6 columns, then ellipses; `far` shows the
// bottom-right corner instead, where a boundary tile's masked lanes are.
void print_corner(const sim::TileAccess& a, bool mask, bool far = false) {
  const int R = std::min(a.rows(), 4), C = std::min(a.cols(), 6);
  const int r0 = far ? a.rows() - R : 0, c0 = far ? a.cols() - C : 0;
  if (far && r0 > 0) std::printf("        ...\n");
  for (int i = r0; i < r0 + R; ++i) {
    std::printf("        [%s", far && c0 > 0 ? " ...  " : "");
    for (int j = c0; j < c0 + C; ++j) {
      if (mask)
        std::printf(" %s", a.valid(i, j) ? "T" : "F");
      else
        std::printf(" %8lld", (long long)a.offset(i, j));
    }
    std::printf("%s ]\n", !far && C < a.cols() ? "  ..." : "");
  }
  if (!far && R < a.rows()) std::printf("        ...  (%d x %d)\n", a.rows(), a.cols());
}

}  // namespace

Action add_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("trace", "One program's steps: offsets, masks, loads, stores");
  auto flags = std::make_shared<ProblemFlags>();
  flags->add_to(*cmd);
  auto pid = std::make_shared<std::int64_t>(0);
  auto only_step = std::make_shared<std::int64_t>(-1);
  auto full = std::make_shared<bool>(false);
  cmd->add_option("--pid", *pid, "Program id (0..programs-1)")
      ->required()
      ->check(scenario::integer_field("pid", 0, std::int64_t{1} << 32));
  cmd->add_option("--step", *only_step, "Only this step (0..steps-1)")
      ->check(scenario::integer_field("step", 0, std::int64_t{1} << 32));
  cmd->add_flag("--offsets", *full, "Text output: print a corner of each offset matrix and mask");
  return [flags, pid, only_step, full]() {
    const auto s = flags->to_scenario();
    // A kernel file's problem carries the file's own plan: its steps' lines are the file's.
    const sim::Problem p = scenario::problem_of(s);
    if (*pid < 0 || *pid >= p.programs())
      throw sim::InvalidField("pid", "pid = " + std::to_string(*pid) +
                                         " is out of range: allowed 0.." +
                                         std::to_string(p.programs() - 1));
    const auto n = sim::steps_per_program(p);
    if (*only_step < -1 || *only_step >= n)
      throw sim::InvalidField("step", "step = " + std::to_string(*only_step) +
                                          " is out of range: allowed 0.." + std::to_string(n - 1));
    const auto tile = sim::tile_of(p, *pid);
    const auto lanes = sim::store_lanes(p, *pid);

    const bool triton = !flags->triton_file.empty();
    // The file, read once for --offsets: its steps' records give each access's expressions.
    std::optional<triton::LoadedKernel> file;
    std::vector<scenario::KernelFileStep> file_steps;
    if (triton && *full && !flags->json) {
      file = triton::load_kernel_file(flags->triton_file, flags->triton_function,
                                      flags->launch_words());
      file_steps = scenario::kernel_file_steps(*file, p.spec(), *pid);
    }
    const std::int64_t first = *only_step < 0 ? 0 : *only_step;
    const std::int64_t last = *only_step < 0 ? n : *only_step + 1;
    if (flags->json) {
      nlohmann::json j{{"pid", *pid},
                       {"pid_m", tile.pid_m},
                       {"pid_n", tile.pid_n},
                       {"store_lanes", lanes.lanes},
                       {"valid_store_lanes", lanes.valid}};
      auto& steps = j["steps"] = nlohmann::json::array();
      for (std::int64_t i = first; i < last; ++i) {
        const auto st = sim::program_step(p, *pid, i);
        nlohmann::json js{{"step", i},
                          {"op", sim::to_string(st.op)},
                          {"line", st.line},
                          {"k", st.k},
                          {"bytes", st.bytes}};
        if (st.op == sim::StepOp::dot) js["flops"] = st.flops;
        if (st.span) {
          const auto a = sim::tile_access(p, st.op, tile, st.k);
          js["matrix"] = a.matrix_name;
          js["offsets"] = offsets_json(a);
          js["mask"] = mask_json(a);
        } else {
          js["offsets"] = nullptr;
          js["mask"] = nullptr;
        }
        steps.push_back(std::move(js));
      }
      std::printf("%s\n", j.dump().c_str());
      return 0;
    }
    std::printf("pid %lld computes output tile (pid_m, pid_n) = (%lld, %lld); %lld steps\n",
                (long long)*pid, (long long)tile.pid_m, (long long)tile.pid_n, (long long)n);
    std::printf("listing: %s\n\n", triton ? (flags->triton_file + " (the Triton file)").c_str()
                                          : p.plan().source.c_str());
    for (std::int64_t i = first; i < last; ++i) {
      const auto st = sim::program_step(p, *pid, i);
      std::printf("  step %4lld  line %2d  %-9s", (long long)i, st.line,
                  std::string(sim::to_string(st.op)).c_str());
      if (st.k >= 0)
        std::printf(" k=%-4lld", (long long)st.k);
      else
        std::printf("       ");
      if (st.span)
        std::printf(" %lld of %lld lanes on, %s", (long long)st.span->lanes_on(),
                    (long long)st.span->lanes(), format_bytes(st.bytes).c_str());
      if (st.op == sim::StepOp::dot) std::printf(" %.0f FLOPs", st.flops);
      std::printf("\n");
      if (*full && st.span) {
        const auto a = sim::tile_access(p, st.op, tile, st.k);
        const auto* rec =
            file && i < static_cast<std::int64_t>(file_steps.size()) && file_steps[i].record
                ? &*file_steps[i].record
                : nullptr;
        if (rec) {
          // The file's own expressions (the bridge checked its offsets and mask are these).
          const auto& src = file->source->lines;
          const std::string ptr = scenario::call_argument(src, rec->pos.line, rec->pos.col, 0);
          const int ptr_line = st.ptr_line != st.line ? st.ptr_line : 0;  // the file's plan's
          std::printf(
              "      offsets of %s (element offsets into %s)%s%s\n", ptr.c_str(),
              rec->access.tensor_name.c_str(), ptr_line > 0 ? ", built on line " : "",
              ptr_line > 0
                  ? (std::to_string(ptr_line) + ": " + scenario::source_line(src, ptr_line)).c_str()
                  : "");
        } else {
          std::printf("      %s[:, None] * %s + %s[None, :] * %s  (%s = %lld, %s = %lld)\n",
                      a.row_expr.c_str(), a.row_stride_name.c_str(), a.col_expr.c_str(),
                      a.col_stride_name.c_str(), a.row_stride_name.c_str(), (long long)a.stride_row,
                      a.col_stride_name.c_str(), (long long)a.stride_col);
        }
        print_corner(a, false);
        if (a.has_mask) {
          const std::string mask_text =
              rec ? scenario::call_argument(file->source->lines, rec->pos.line, rec->pos.col, 0,
                                            "mask")
                  : std::string();
          std::printf("      mask%s%s\n", mask_text.empty() ? "" : " = ", mask_text.c_str());
          print_corner(a, true);
          if (st.span->lanes_on() < st.span->lanes()) {  // the boundary: show where lanes turn off
            std::printf("      bottom-right corner, offsets and mask\n");
            print_corner(a, false, true);
            print_corner(a, true, true);
          }
        }
      }
    }
    std::printf("\nstore lanes: %lld, of which %lld valid (masked off: %lld)\n",
                (long long)lanes.lanes, (long long)lanes.valid,
                (long long)(lanes.lanes - lanes.valid));
    return 0;
  };
}

}  // namespace tilesim::cli
