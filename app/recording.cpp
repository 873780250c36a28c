// --record: an animation of the replay, headless. The frames are animation_frames() from --from
// to --to (a quarter second per event, or simulated time at the app's rate), each settled, read
// back (the --panel panel only) and encoded; the clip's size is estimated from its first frames
// and a clip past --max-frames or --max-mb is refused before anything is written.
#include "app/recording.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/core/animation.hpp"
#include "app/core/recording_budget.hpp"
#include "app/platform/record.hpp"

namespace tilesim::app {

int record(Session& s, const Options& o) {
  const std::int64_t events = s.model.events();
  std::int64_t to = o.to.value_or(s.model.position() > 0 ? s.model.position()
                                                         : std::min<std::int64_t>(events, 8));
  std::int64_t from = o.from.value_or(std::max<std::int64_t>(0, to - 8));
  to = std::min(to, events);
  if (to <= from) {
    std::fprintf(stderr, "tilesim: nothing to record: --from %lld --to %lld of %lld events\n",
                 (long long)from, (long long)to, (long long)events);
    return 2;
  }
  // Round orders: a quarter second per event. The timed order plays simulated time at the app's
  // rate, stretched when the span is shorter than the round recording would be (a few events
  // can take nanoseconds), so frames stay spaced in simulated time; events all at one time
  // (the launch) are shown one by one as in a round order.
  const auto f = s.model.engine->frame();
  const bool timed = f && f->order && f->order->timed();
  const double span_ps = timed ? double(f->order->time_ps(to) - f->order->time_ps(from)) : 0.0;
  std::vector<AnimPoint> frames;
  if (span_ps > 0) {
    const double seconds_per_ps =
        std::max(o.slow / s.model.ps_per_second, 0.25 * o.slow * double(to - from) / span_ps);
    frames = animation_frames(TimedClock(f->order), from, to, seconds_per_ps, o.fps);
  } else {
    frames = animation_frames(UniformClock{}, from, to, 0.25 * o.slow, o.fps);
  }
  const int n = static_cast<int>(frames.size());
  const auto area = figure_area(s.ui, std::nullopt);
  const int w =
      static_cast<int>(area ? std::ceil(area->x + area->w) - std::floor(area->x) : s.plat.width());
  const int h =
      static_cast<int>(area ? std::ceil(area->y + area->h) - std::floor(area->y) : s.plat.height());
  const std::string out = o.record->string();
  std::printf("recording %s: %d frames (%.1f s at %g fps), %dx%d, positions %lld..%lld\n",
              out.c_str(), n, n / o.fps, o.fps, w, h, (long long)from, (long long)to);
  const auto fail = [&](const std::string& why) {
    std::fprintf(stderr, "tilesim: recording %s: %s\n", out.c_str(), why.c_str());
    return 1;
  };
  if (auto why = frame_count_refusal(n, o.max_frames, o.fps); !why.empty()) return fail(why);
  const std::string limit =
      o.max_mb > 0 ? "limit " + format_megabytes(o.max_mb * 1e6) + ", --max-mb" : "no limit";
  Recorder rec;
  if (auto err = rec.open(*o.record, w, h, o.fps); !err.empty()) return fail(err);
  // An MP4's size is modelled before rendering; a GIF's is measured on its first frames, then
  // every frame is checked against the limit while it is encoded.
  const auto refuse = [&](double estimate) {
    const auto why = recording_refusal(estimate, o.max_mb, n, o.fps);
    if (!why.empty()) rec.abandon();
    return why;
  };
  if (!rec.gif()) {
    const double estimate = estimate_mp4_bytes(w, h, n);
    std::printf("estimated size %s (%s)\n", format_megabytes(estimate).c_str(), limit.c_str());
    if (auto why = refuse(estimate); !why.empty()) return fail(why);
  }
  std::int64_t first_bytes = 0;
  for (int i = 0; i < n; ++i) {
    s.model.engine->seek(frames[i].position);
    s.ui.anim_fraction = frames[i].fraction;
    settle(s);
    Pixels px;
    std::string err = s.plat.read_pixels(area, px);
    if (err.empty()) err = rec.add(px);
    if (!err.empty()) return fail(err);
    if (!rec.gif()) continue;
    if (i == 0) first_bytes = rec.encoded_bytes();
    const int sampled = i + 1;
    if (sampled == std::min(n, kEstimateFrames)) {
      const double estimate =
          estimate_recording_bytes(first_bytes, rec.encoded_bytes() - first_bytes, sampled, n);
      std::printf("estimated size %s from the first %d frames (%s)\n",
                  format_megabytes(estimate).c_str(), sampled, limit.c_str());
      if (auto why = refuse(estimate); !why.empty()) return fail(why);
    } else if (sampled > kEstimateFrames) {
      const double so_far =
          estimate_recording_bytes(first_bytes, rec.encoded_bytes() - first_bytes, sampled, n);
      if (auto why = refuse(std::max(so_far, double(rec.encoded_bytes()))); !why.empty())
        return fail("after " + std::to_string(sampled) + " frames: " + why);
    }
  }
  if (auto err = rec.close(); !err.empty()) return fail(err);
  if (o.max_mb > 0 && rec.file_bytes() > o.max_mb * 1e6) {
    std::error_code ec;
    std::filesystem::remove(*o.record, ec);
    return fail(recording_refusal(double(rec.file_bytes()), o.max_mb, n, o.fps) +
                " (the file was removed)");
  }
  std::printf("wrote %s (%d frames, %s, positions %lld..%lld)\n", out.c_str(), rec.frames(),
              format_megabytes(double(rec.file_bytes())).c_str(), (long long)from, (long long)to);
  return 0;
}

}  // namespace tilesim::app
