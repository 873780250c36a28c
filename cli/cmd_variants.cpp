// `tilesim-cli variants [--json]`: the variant registry (kernels/variants.cpp) as the tools read
// it — each CUDA rung and baseline, whether the timed engine describes it and which warp model
// mirrors its threads. Scripts (fit_timing.py, fidelity_report.py) take their rung lists from
// here, so a rung added to the registry reaches them without a second table to keep in step.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.hpp"
#include "kernels/variants.hpp"
#include "sim/timing/step_costs.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::cli {
namespace {

std::string_view kind_name(kernels::VariantKind k) {
  return k == kernels::VariantKind::baseline ? "baseline" : "rung";
}

std::string dtype_list(const kernels::Variant& v) {
  std::string s;
  for (const auto d : v.dtypes) {
    if (!s.empty()) s += ',';
    s += sim::to_string(d);
  }
  return s;
}

// An unset field stays null: the problem's own value (or Triton's choice) then applies.
template <class T>
nlohmann::json name_or_null(const std::optional<T>& x) {
  return x ? nlohmann::json(std::string(sim::to_string(*x))) : nlohmann::json(nullptr);
}
nlohmann::json int_or_null(const std::optional<int>& x) {
  return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const kernels::Variant& v) {
  nlohmann::json dtypes = nlohmann::json::array();
  for (const auto d : v.dtypes) dtypes.push_back(sim::to_string(d));
  nlohmann::json j{{"name", v.name},
                   {"kernel", sim::to_string(v.kernel)},
                   {"dtypes", dtypes},
                   {"kind", kind_name(v.kind)},
                   {"timed", v.timing.has_value()},
                   {"warp_model", name_or_null(v.warp_model)},
                   {"min_cc", v.min_cc},
                   {"baseline", v.baseline},
                   {"teaches", v.teaches}};
  if (const auto& t = v.timing) {
    const sim::TimingOptions& o = t->options;
    j["timing"] = {{"math_path", name_or_null(o.path)},
                   {"smem_layout", name_or_null(o.layout)},
                   {"num_warps", int_or_null(t->num_warps)},
                   {"stages", int_or_null(t->stages)},
                   {"loads_in_flight", o.loads_in_flight},
                   {"load_bytes", o.load_bytes},
                   {"warp_instructions", o.warp_instructions},
                   {"warp_issue_cycles", o.warp_issue_cycles},
                   {"fragments_double_buffered", o.fragments_double_buffered},
                   {"registers_per_thread", o.registers_per_thread}};
    if (o.counted_at)
      j["timing"]["counted_at"] = {{"block_m", o.counted_at->block_m},
                                   {"block_n", o.counted_at->block_n},
                                   {"block_k", o.counted_at->block_k},
                                   {"num_warps", o.counted_at->num_warps}};
  }
  return j;
}

}  // namespace

Action add_variants_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "variants",
      "The CUDA kernel variants (kernels/variants.cpp): which ones the timed engine describes "
      "(run --variant) and which warp model mirrors each (warps --variant)");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Machine-readable output");
  return [json]() {
    const auto& all = kernels::variants();
    if (*json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& v : all) list.push_back(to_json(v));
      std::printf("%s\n", nlohmann::json{{"variants", list}}.dump(2).c_str());
      return 0;
    }
    std::printf("%-33s %-9s %-14s %-8s %-5s %-25s %s\n", "variant", "kernel", "dtypes", "kind",
                "timed", "warp model", "teaches");
    for (const auto& v : all)
      std::printf("%-33s %-9s %-14s %-8s %-5s %-25s %s\n", v.name.c_str(),
                  std::string(sim::to_string(v.kernel)).c_str(), dtype_list(v).c_str(),
                  std::string(kind_name(v.kind)).c_str(), v.timing ? "yes" : "-",
                  v.warp_model ? std::string(sim::to_string(*v.warp_model)).c_str() : "-",
                  v.teaches.c_str());
    return 0;
  };
}

}  // namespace tilesim::cli
