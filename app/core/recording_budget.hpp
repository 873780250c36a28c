// How large a recording will be, known before it is written: the first few frames are encoded,
// the rest extrapolated from them, and a recording past the limit (--max-mb) is refused with
// both numbers instead of filling a disk. A GIF's first frame holds the whole picture; each
// later frame only what changed, so the estimate is the first frame plus the mean later frame
// times the frames still to come.
#pragma once

#include <cstdint>
#include <string>

namespace tilesim::app {

inline constexpr double kDefaultMaxRecordingMb = 8;  // --max-mb: a few slides' worth of GIF
inline constexpr int kEstimateFrames = 4;            // frames encoded before the estimate
// --max-frames: 50 s at 12 fps. A longer clip is rarely what a slide wants (events 81..400 of
// the timed order are 958 frames, 80 s) and takes minutes to render.
inline constexpr int kDefaultMaxRecordingFrames = 600;

// Estimated bytes of a recording of `total_frames` frames from the first `sampled` frames
// encoded: `first_bytes` for frame 1 (with the file's header), `later_bytes` for frames
// 2..sampled together.
double estimate_recording_bytes(std::int64_t first_bytes, std::int64_t later_bytes, int sampled,
                                int total_frames);

// An MP4's estimate before any frame is encoded (ffmpeg buffers them): H.264 of a UI at its
// default quality, about 0.15 bytes per pixel for the first frame and 0.02 per pixel for each
// later one (measured here on the app's panels, rounded up).
double estimate_mp4_bytes(int w, int h, int total_frames);

// Why a recording of about `bytes` cannot be written under a limit of `max_mb` megabytes
// (10^6 bytes; 0 = no limit), naming the estimate, the limit, the frames and what to change;
// empty when it fits.
std::string recording_refusal(double bytes, double max_mb, int frames, double fps);

// Why `frames` frames are more than `max_frames` (what to change), or empty.
std::string frame_count_refusal(int frames, int max_frames, double fps);

// "1.37 MB" (10^6 bytes) or "412 kB".
std::string format_megabytes(double bytes);

}  // namespace tilesim::app
