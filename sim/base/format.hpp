// Text forms of figures that the app, the CLI and the tests all show, so a number reads the same
// everywhere (STYLE.md: a figure shown in the app and printed by the CLI comes from one function).
#pragma once

#include <string>

namespace tilesim::sim {

// Decimal units, as GPU datasheets and Nsight Compute give bytes: 442368 -> "442.37 kB".
std::string format_bytes(double bytes);
// 0.0000123 -> "12.3 us", 0.0123 -> "12.30 ms", 2.5 -> "2.50 s".
std::string format_seconds(double s);
// 0.4567 -> "45.7 %".
std::string format_percent(double fraction);
// 1234567 -> "1,234,567".
std::string format_count(long long n);
// A ratio as the compare table's last column shows it: 1.0833 -> "1.08x" (no space, so a line
// never breaks inside it); "-" where it has no value (a side is 0).
std::string format_ratio(double ratio);

}  // namespace tilesim::sim
