// The size estimate and limit of recordings (see recording_budget.hpp).
#include "app/core/recording_budget.hpp"

#include <algorithm>
#include <cstdio>

namespace tilesim::app {

double estimate_recording_bytes(std::int64_t first_bytes, std::int64_t later_bytes, int sampled,
                                int total_frames) {
  const double per_later = sampled > 1 ? double(later_bytes) / (sampled - 1) : double(first_bytes);
  return double(first_bytes) + per_later * std::max(0, total_frames - 1);
}

double estimate_mp4_bytes(int w, int h, int total_frames) {
  const double px = double(w) * h;
  return 0.15 * px + 0.02 * px * std::max(0, total_frames - 1);
}

std::string format_megabytes(double bytes) {
  char buf[32];
  if (bytes < 1e6)
    std::snprintf(buf, sizeof buf, "%.0f kB", bytes / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f MB", bytes / 1e6);
  return buf;
}

std::string recording_refusal(double bytes, double max_mb, int frames, double fps) {
  if (max_mb <= 0 || bytes <= max_mb * 1e6) return {};
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "the recording would be about %s (%d frames, %.1f s at %g fps), over the limit "
                "of --max-mb %g; record one panel (--panel NAME), fewer events (--from/--to) or "
                "frames (--fps), or raise the limit (--max-mb 0: none)",
                format_megabytes(bytes).c_str(), frames, frames / fps, fps, max_mb);
  return buf;
}

std::string frame_count_refusal(int frames, int max_frames, double fps) {
  if (frames <= max_frames) return {};
  char buf[300];
  std::snprintf(buf, sizeof buf,
                "%d frames (%.1f s at %g fps) are more than --max-frames %d; record fewer events "
                "(--from/--to) or frames (--fps), or raise the limit",
                frames, frames / fps, fps, max_frames);
  return buf;
}

}  // namespace tilesim::app
