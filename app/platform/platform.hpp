// The seam between the app and GLFW / OpenGL 3.3 / Dear ImGui's backends (as in ImGui's
// backends/): open a window (visible, or hidden with an offscreen framebuffer for figures),
// load the fonts, run frames, and read pixels back into a PNG.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/core/layout.hpp"

struct GLFWwindow;
struct ImFont;
struct ImGuiIO;

namespace tilesim::app {

struct Fonts {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
  ImFont* title = nullptr;
};

// Presentation: fonts grown for projectors, a light theme for printed handouts.
struct PlatformStyle {
  float font_scale = 1.0f;
  bool light = false;
  // UTF-8 text whose characters beyond Latin and Cyrillic (the seeds' Chinese words in the
  // glossary and the quotes) get glyphs from a CJK font when one is installed; only these
  // characters, so the atlas stays small.
  std::string glyph_text;
};

// Pixels read back from the frame: top row first, RGBA, opaque.
struct Pixels {
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
};

class Platform {
 public:
  // headless: hidden window and an offscreen framebuffer of width x height (x scale) pixels.
  // Returns an error sentence, or empty on success.
  std::string open(int width, int height, float scale, bool headless, PlatformStyle style = {});
  ~Platform();

  bool should_close() const;
  // Polls events and starts an ImGui frame at the logical size; `inject` (the soak test) may
  // overwrite the input the backend read before ImGui sees it.
  void begin_frame(const std::function<void(ImGuiIO&)>& inject = {});
  void render();   // ImGui::Render and draw into the window or the offscreen target
  void present();  // swap buffers (visible window only)
  // Pixels of `area` (logical coordinates; whole frame when nullopt) as a PNG, written atomically.
  std::string write_png(const std::filesystem::path& path, std::optional<Rect> area) const;
  // The pixels of `area` (whole frame when nullopt); error sentence or empty.
  std::string read_pixels(std::optional<Rect> area, Pixels& out) const;

  float width() const;  // logical size the panels are laid out in
  float height() const;
  const Fonts& fonts() const { return m_fonts; }
  GLFWwindow* window() const { return m_window; }

 private:
  void load_fonts(float scale, const std::string& glyph_text);
  GLFWwindow* m_window = nullptr;
  bool m_headless = false;
  int m_fb_w = 0, m_fb_h = 0;  // offscreen target size in pixels
  unsigned m_fbo = 0, m_color = 0;
  Fonts m_fonts;
  bool m_imgui = false;
};

// Is there a display to open a window on ($DISPLAY or $WAYLAND_DISPLAY)?
bool display_available();

}  // namespace tilesim::app
