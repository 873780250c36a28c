// `tilesim-cli warps --variant V`: how a CUDA kernel's warps issue the tile accesses —
// sectors per global request (coalescing) and shared-memory bank conflicts.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "scenario/resolve.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::cli {

Action add_warps_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "warps", "Coalescing and bank conflicts of a CUDA variant's warps (model of kernels/*.cu)");
  auto flags = std::make_shared<ProblemFlags>();
  flags->add_to(*cmd);
  auto variant = std::make_shared<std::string>();
  cmd->add_option("--variant", *variant,
                  "copy_tiled | transpose_naive | transpose_smem_tiled | transpose_smem_padded | "
                  "matmul_smem_tiled | matmul_fma_b_rowmajor | matmul_fma_bt_conflicting | "
                  "matmul_fma_bt_padded (default: the kernel's first)");
  return [flags, variant]() {
    const auto s = flags->to_scenario();
    const sim::Problem p = scenario::problem_of(s);
    check_enumerable(p, "warps");
    sim::ThreadVariant v = sim::thread_variants(p.kernel()).front();
    if (!variant->empty()) {
      const auto parsed = sim::parse_thread_variant(*variant);
      if (!parsed || !sim::variant_fits(*parsed, p.kernel()))
        throw sim::InvalidField("variant", "variant = \"" + *variant + "\" is unknown for kernel " +
                                               std::string(sim::to_string(p.kernel())) +
                                               ": allowed copy_tiled (copy), transpose_naive | "
                                               "transpose_smem_tiled | transpose_smem_padded "
                                               "(transpose), matmul_smem_tiled | "
                                               "matmul_fma_b_rowmajor | matmul_fma_bt_conflicting "
                                               "| matmul_fma_bt_padded (matmul)");
      v = *parsed;
    }
    const auto c = sim::warp_access(p, v);
    if (flags->json) {
      nlohmann::json j{{"variant", sim::to_string(v)},
                       {"threads_per_program", sim::threads_per_program(p, v)},
                       {"global_ld_requests", c.global_ld_requests},
                       {"global_ld_sectors", c.global_ld_sectors},
                       {"global_st_requests", c.global_st_requests},
                       {"global_st_sectors", c.global_st_sectors},
                       {"shared_ld_requests", c.shared_ld_requests},
                       {"shared_st_requests", c.shared_st_requests},
                       {"shared_ld_wavefronts", c.shared_ld_wavefronts},
                       {"shared_st_wavefronts", c.shared_st_wavefronts},
                       {"shared_ld_bank_conflicts", c.shared_ld_conflicts()},
                       {"shared_st_bank_conflicts", c.shared_st_conflicts()},
                       {"shared_ld_conflicts_per_request", c.ld_conflicts_per_request()},
                       {"shared_st_conflicts_per_request", c.st_conflicts_per_request()}};
      std::printf("%s\n", j.dump(2).c_str());
      return 0;
    }
    std::printf("%s, %d threads per program\n", std::string(sim::to_string(v)).c_str(),
                sim::threads_per_program(p, v));
    std::printf(
        "  global loads : %12lld requests, %6.2f sectors per request (4 is coalesced fp32)\n",
        (long long)c.global_ld_requests, c.ld_sectors_per_request());
    std::printf("  global stores: %12lld requests, %6.2f sectors per request\n",
                (long long)c.global_st_requests, c.st_sectors_per_request());
    // Per request: a w-way conflict costs w wavefronts, w - 1 conflicts (0 = conflict-free).
    std::printf("  shared loads : %12lld requests, %12lld bank conflicts, %6.2f per request\n",
                (long long)c.shared_ld_requests, (long long)c.shared_ld_conflicts(),
                c.ld_conflicts_per_request());
    std::printf("  shared stores: %12lld requests, %12lld bank conflicts, %6.2f per request\n",
                (long long)c.shared_st_requests, (long long)c.shared_st_conflicts(),
                c.st_conflicts_per_request());
    return 0;
  };
}

}  // namespace tilesim::cli
