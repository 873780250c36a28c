// The register-blocked rungs (matmul_register_blocked.cu): their tiles, which the kernels are
// instantiated with, and their launchers.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace register_blocked {
inline constexpr FixedTile kTile{128, 128, 8};
inline constexpr FixedTile kTileBk16{128, 128, 16};
}  // namespace register_blocked

namespace detail {
std::string launch_matmul_register_blocked(const LaunchArgs& args);
std::string launch_matmul_register_blocked_bk16(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels
