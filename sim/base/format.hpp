// Text forms of figures that the app, the CLI and the tests all show, so a number reads the same
// everywhere (STYLE.md: a figure shown in the app and printed by the CLI comes from one function).
#pragma once

#include <string>

namespace tilesim::sim {

// Decimal units, as GPU datasheets and Nsight Compute give bytes: 442368 -> "442.37 kB".
std::string format_bytes(double bytes);

}  // namespace tilesim::sim
