// GIF (giflib: one global palette, changed rectangles only) and MP4 (ffmpeg pipe) recordings;
// see record.hpp.
#include "app/platform/record.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "scenario/file_io.hpp"

#ifdef TILESIM_WITH_GIF
#include <gif_lib.h>
#endif

namespace tilesim::app {
namespace {

std::string lower_ext(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

#ifdef TILESIM_WITH_GIF
int gif_sink(GifFileType* gif, const GifByteType* data, int n) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), n);
  return n;
}
#endif

}  // namespace

std::filesystem::path find_ffmpeg() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const auto p = std::filesystem::path(dir) / "ffmpeg";
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

std::string Recorder::check(const std::filesystem::path& out) {
  const std::string ext = lower_ext(out);
  if (ext == ".gif") {
#ifdef TILESIM_WITH_GIF
    return {};
#else
    return "this tilesim was built without giflib (apt install libgif-dev, then rebuild)";
#endif
  }
  if (ext == ".mp4") {
    if (find_ffmpeg().empty())
      return "recording MP4 needs the ffmpeg executable on PATH (apt install ffmpeg); "
             "--record OUT.gif works without it";
    return {};
  }
  return "--record wants a file ending in .gif or .mp4, got '" + out.string() + "'";
}

std::string Recorder::open(const std::filesystem::path& out, int w, int h, double fps) {
  if (auto err = check(out); !err.empty()) return err;
  m_out = out;
  m_w = w;
  m_h = h;
  m_fps = fps;
  m_gif = lower_ext(out) == ".gif";
  if (m_gif) {
#ifdef TILESIM_WITH_GIF
    int err = 0;
    GifFileType* gif = EGifOpen(&m_bytes, gif_sink, &err);
    if (!gif) return std::string("giflib: ") + GifErrorString(err);
    m_gif_file = gif;
    EGifSetGifVersion(gif, true);  // GIF89a: frame delays and looping
#endif
    return {};  // the screen descriptor waits for the first frame's palette
  }
  const auto dir = out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
  m_tmp = dir / ("." + out.filename().string() + ".tmp-" + std::to_string(::getpid()) + ".mp4");
  char size[32], rate[32];
  std::snprintf(size, sizeof size, "%dx%d", w, h);
  std::snprintf(rate, sizeof rate, "%.3f", fps);
  // Even sizes for yuv420p; the default H.264 encoder; quiet unless something fails.
  const std::string cmd =
      shell_quote(find_ffmpeg().string()) +
      " -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s " + size + " -r " + rate +
      " -i - -vf pad=ceil(iw/2)*2:ceil(ih/2)*2 -pix_fmt yuv420p " + shell_quote(m_tmp.string());
  m_ffmpeg = ::popen(cmd.c_str(), "w");
  if (!m_ffmpeg) return "could not start ffmpeg";
  return {};
}

#ifdef TILESIM_WITH_GIF
namespace {

// A colour further than this from every global palette entry (squared RGB distance: about 14
// levels in each channel) sends its rectangle to a palette of its own, so a colour the first
// frame did not have (a travelling tile, an outline) keeps its hue.
constexpr int kPaletteTolerance = 3 * 14 * 14;

// (red, green, blue) planes of the rectangle [x0, x1) x [y0, y1) of an RGBA frame.
void planes(const Pixels& f, int x0, int y0, int x1, int y1, std::vector<GifByteType>& r,
            std::vector<GifByteType>& g, std::vector<GifByteType>& b) {
  const std::size_t n = static_cast<std::size_t>(x1 - x0) * (y1 - y0);
  r.resize(n);
  g.resize(n);
  b.resize(n);
  std::size_t i = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x, ++i) {
      const unsigned char* c = f.rgba.data() + (static_cast<std::size_t>(y) * f.w + x) * 4;
      r[i] = c[0];
      g[i] = c[1];
      b[i] = c[2];
    }
}

std::string gif_error(GifFileType* gif) {
  return std::string("giflib: ") + GifErrorString(gif->Error);
}

}  // namespace
#endif

// Writes the rectangle [x0, x1) x [y0, y1) of `frame` as one GIF image over the last frame:
// indices into the global palette where every colour is close to one of it, else a palette of
// the rectangle's own.
std::string Recorder::put_gif_rect(const Pixels& frame, int x0, int y0, int x1, int y1) {
#ifdef TILESIM_WITH_GIF
  auto* gif = static_cast<GifFileType*>(m_gif_file);
  const int w = x1 - x0, h = y1 - y0;
  std::vector<GifByteType> r, g, b, index(static_cast<std::size_t>(w) * h);
  planes(frame, x0, y0, x1, y1, r, g, b);
  bool fits = true;
  for (std::size_t i = 0; i < index.size() && fits; ++i) {
    const std::uint32_t key = std::uint32_t(r[i]) << 16 | std::uint32_t(g[i]) << 8 | b[i];
    auto it = m_nearest.find(key);
    if (it == m_nearest.end()) {
      int best = 0, best_d = 1 << 30;
      for (int k = 0; k < 256; ++k) {
        const int dr = int(r[i]) - m_palette[3 * k], dg = int(g[i]) - m_palette[3 * k + 1],
                  db = int(b[i]) - m_palette[3 * k + 2];
        const int d = dr * dr + dg * dg + db * db;
        if (d < best_d) best = k, best_d = d;
      }
      it = m_nearest.emplace(key, best_d > kPaletteTolerance ? -1 : best).first;
    }
    if (it->second < 0)
      fits = false;
    else
      index[i] = static_cast<GifByteType>(it->second);
  }
  std::vector<GifColorType> local(256);
  if (!fits) {
    int colours = 256;
    if (GifQuantizeBuffer(w, h, &colours, r.data(), g.data(), b.data(), index.data(),
                          local.data()) == GIF_ERROR)
      return "giflib could not quantise a frame";
  }
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;  // the next frame draws over this one
  gcb.DelayTime = static_cast<int>(std::lround(100.0 / m_fps));  // hundredths of a second
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t len = EGifGCBToExtension(&gcb, ext);
  if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(len), ext) == GIF_ERROR)
    return gif_error(gif);
  ColorMapObject* cmap = fits ? nullptr : GifMakeMapObject(256, local.data());
  const int ok = EGifPutImageDesc(gif, x0, y0, w, h, false, cmap);
  if (cmap) GifFreeMapObject(cmap);
  if (ok == GIF_ERROR) return gif_error(gif);
  for (int y = 0; y < h; ++y)
    if (EGifPutLine(gif, index.data() + static_cast<std::size_t>(y) * w, w) == GIF_ERROR)
      return gif_error(gif);
  return {};
#else
  (void)frame, (void)x0, (void)y0, (void)x1, (void)y1;
  return "built without giflib";
#endif
}

std::string Recorder::add_gif(const Pixels& frame) {
#ifdef TILESIM_WITH_GIF
  auto* gif = static_cast<GifFileType*>(m_gif_file);
  if (m_last.empty()) {
    // The first frame's 256 colours become the global palette every later frame reuses.
    std::vector<GifByteType> r, g, b, index(static_cast<std::size_t>(m_w) * m_h);
    planes(frame, 0, 0, m_w, m_h, r, g, b);
    int colours = 256;
    std::vector<GifColorType> map(256);
    if (GifQuantizeBuffer(m_w, m_h, &colours, r.data(), g.data(), b.data(), index.data(),
                          map.data()) == GIF_ERROR)
      return "giflib could not quantise a frame";
    m_palette.resize(3 * 256);
    for (int k = 0; k < 256; ++k) {
      m_palette[3 * k] = map[k].Red;
      m_palette[3 * k + 1] = map[k].Green;
      m_palette[3 * k + 2] = map[k].Blue;
    }
    ColorMapObject* cmap = GifMakeMapObject(256, map.data());
    const int ok = EGifPutScreenDesc(gif, m_w, m_h, 8, 0, cmap);
    GifFreeMapObject(cmap);
    if (ok == GIF_ERROR) return gif_error(gif);
    // NETSCAPE2.0 application block: loop forever.
    const GifByteType loop[3] = {1, 0, 0};
    EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE);
    EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0");
    EGifPutExtensionBlock(gif, 3, loop);
    EGifPutExtensionTrailer(gif);
    m_last = frame.rgba;
    return put_gif_rect(frame, 0, 0, m_w, m_h);
  }
  // The rectangle that changed since the last frame; an unchanged frame is one pixel (it
  // still holds the frame's delay).
  int x0 = m_w, y0 = m_h, x1 = 0, y1 = 0;
  for (int y = 0; y < m_h; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * m_w * 4;
    for (int x = 0; x < m_w; ++x) {
      const std::size_t i = row + static_cast<std::size_t>(x) * 4;
      if (frame.rgba[i] == m_last[i] && frame.rgba[i + 1] == m_last[i + 1] &&
          frame.rgba[i + 2] == m_last[i + 2])
        continue;
      x0 = std::min(x0, x), x1 = std::max(x1, x + 1);
      y0 = std::min(y0, y), y1 = std::max(y1, y + 1);
    }
  }
  if (x1 <= x0) x0 = 0, y0 = 0, x1 = 1, y1 = 1;
  m_last = frame.rgba;
  return put_gif_rect(frame, x0, y0, x1, y1);
#else
  (void)frame;
  return "built without giflib";
#endif
}

std::string Recorder::add(const Pixels& frame) {
  if (frame.w != m_w || frame.h != m_h) return "a frame changed size while recording";
  ++m_frames;
  if (m_gif) return add_gif(frame);
  if (!m_ffmpeg) return "the recording is not open";
  if (std::fwrite(frame.rgba.data(), 1, frame.rgba.size(), m_ffmpeg) != frame.rgba.size())
    return "ffmpeg stopped reading frames";
  return {};
}

std::string Recorder::close() {
  if (m_gif) {
#ifdef TILESIM_WITH_GIF
    int err = 0;
    auto* gif = static_cast<GifFileType*>(m_gif_file);
    m_gif_file = nullptr;
    if (!gif || EGifCloseFile(gif, &err) == GIF_ERROR)
      return std::string("giflib: ") + GifErrorString(err);
    try {
      scenario::write_file_atomic(m_out, m_bytes);
    } catch (const std::exception& e) {
      return e.what();
    }
    m_file_bytes = static_cast<std::int64_t>(m_bytes.size());
#endif
    return {};
  }
  if (!m_ffmpeg) return "the recording is not open";
  const int rc = ::pclose(m_ffmpeg);
  m_ffmpeg = nullptr;
  std::error_code ec;
  if (rc != 0) {
    std::filesystem::remove(m_tmp, ec);
    return "ffmpeg failed (exit status " + std::to_string(rc) + ")";
  }
  m_file_bytes = static_cast<std::int64_t>(std::filesystem::file_size(m_tmp, ec));
  std::filesystem::rename(m_tmp, m_out, ec);
  if (ec) return m_out.string() + ": " + ec.message();
  return {};
}

void Recorder::abandon() {
#ifdef TILESIM_WITH_GIF
  if (m_gif_file) {
    int err = 0;
    EGifCloseFile(static_cast<GifFileType*>(m_gif_file), &err);
    m_gif_file = nullptr;
  }
#endif
  m_bytes.clear();
  if (m_ffmpeg) {
    ::pclose(m_ffmpeg);
    m_ffmpeg = nullptr;
    std::error_code ec;
    std::filesystem::remove(m_tmp, ec);
  }
}

Recorder::~Recorder() {
  abandon();
}

}  // namespace tilesim::app
