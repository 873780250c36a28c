// GLFW window + OpenGL 3.3 core context + Dear ImGui (GLFW and OpenGL3 backends), fonts, and an
// offscreen framebuffer so headless figures do not depend on the size of the X screen.
#define GL_GLEXT_PROTOTYPES
#include "app/platform/platform.hpp"

// glfw3.h must come first: it includes GL/gl.h, which glext.h needs.
#include <GLFW/glfw3.h>
// clang-format off
#include <GL/glext.h>
// clang-format on
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "app/core/palette.hpp"

namespace tilesim::app {

bool display_available() {
  const char* d = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (d && *d) || (w && *w);
}

std::string Platform::open(int width, int height, float scale, bool headless, PlatformStyle style) {
  m_headless = headless;
  glfwSetErrorCallback([](int, const char*) {});
  if (!glfwInit()) return "GLFW could not initialise (no display?)";
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (headless) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  const int ww = headless ? 64 : static_cast<int>(width * scale);
  const int wh = headless ? 64 : static_cast<int>(height * scale);
  m_window =
      glfwCreateWindow(ww, wh, "tilesim — tiled GPU kernels, step by step", nullptr, nullptr);
  if (!m_window) return "could not create an OpenGL 3.3 core window";
  glfwMakeContextCurrent(m_window);
  glfwSwapInterval(headless ? 0 : 1);

  if (headless) {
    m_fb_w = static_cast<int>(width * scale);
    m_fb_h = static_cast<int>(height * scale);
    glGenFramebuffers(1, &m_fbo);
    glGenRenderbuffers(1, &m_color);
    glBindRenderbuffer(GL_RENDERBUFFER, m_color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, m_fb_w, m_fb_h);
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_color);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      return "offscreen framebuffer incomplete";
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed, never saved
  palette::set_theme(style.light ? palette::Theme::light : palette::Theme::dark);
  if (style.light)
    ImGui::StyleColorsLight();
  else
    ImGui::StyleColorsDark();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowRounding = 0;
  st.FrameRounding = 3;
  st.WindowBorderSize = 1;
  st.WindowPadding = ImVec2(10, 8);
  st.ItemSpacing = ImVec2(8, 5);
  const auto col = [](Rgba c) {
    return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f);
  };
  st.Colors[ImGuiCol_WindowBg] = col(palette::panel);
  st.Colors[ImGuiCol_TitleBg] = col(palette::background);
  st.Colors[ImGuiCol_TitleBgActive] = col(palette::background);
  st.Colors[ImGuiCol_Text] = col(palette::text);
  st.Colors[ImGuiCol_TextDisabled] = col(palette::text_dim);
  st.ScaleAllSizes(scale);
  load_fonts(scale * std::clamp(style.font_scale, 0.5f, 4.0f), style.glyph_text);
  ImGui_ImplGlfw_InitForOpenGL(m_window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  m_imgui = true;
  return {};
}

void Platform::load_fonts(float scale, const std::string& glyph_text) {
  ImGuiIO& io = ImGui::GetIO();
  // Latin, Cyrillic (the Russian seed's words: DejaVu has them) and the symbols panels draw.
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder b;
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    b.AddRanges(io.Fonts->GetGlyphRangesCyrillic());  // seed 003's words (glossary, quotes)
    for (ImWchar c :
         {0x2026, 0x2190, 0x2192, 0x2193, 0x2264, 0x2265, 0x22EE, 0x22EF, 0x22F1, 0x25B6, 0x23F8,
          0x2016, 0x00D7, 0x2014, 0x2013, 0x2022, 0x00B2, 0x00B3, 0x00B7, 0x00A0, 0x2212, 0x2248})
      b.AddChar(c);
    b.BuildRanges(&ranges);
  }
  // Seeds 000, 001 and 004 are Chinese: the glossary and quotes cite their words. DejaVu has no
  // CJK glyphs, so the CJK characters of `glyph_text` only (a few hundred; all of CJK would make
  // the atlas huge) are merged in from WenQuanYi (fonts-wqy-microhei) when it is installed.
  static ImVector<ImWchar> cjk;
  if (cjk.empty()) {
    ImFontGlyphRangesBuilder b;
    ImVector<ImWchar> all;
    ImFontGlyphRangesBuilder every;
    every.AddText(glyph_text.c_str());
    every.BuildRanges(&all);
    for (int i = 0; i + 1 < all.Size && all[i] != 0; i += 2)
      for (unsigned c = all[i]; c <= static_cast<unsigned>(all[i + 1]); ++c)
        if (c >= 0x2E80) b.AddChar(static_cast<ImWchar>(c));
    b.BuildRanges(&cjk);
  }
  const char* cjk_font = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";
  const auto merge_cjk = [&](float px) {
    if (cjk.Size <= 1 || !std::filesystem::exists(cjk_font)) return;
    ImFontConfig cfg;
    cfg.MergeMode = true;
    io.Fonts->AddFontFromFileTTF(cjk_font, px * scale, &cfg, cjk.Data);
  };
  const char* sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  const char* bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
  const char* mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  auto load = [&](const char* path, float px) -> ImFont* {
    if (!std::filesystem::exists(path)) return nullptr;
    return io.Fonts->AddFontFromFileTTF(path, px * scale, nullptr, ranges.Data);
  };
  m_fonts.ui = load(sans, 16.0f);
  if (m_fonts.ui) merge_cjk(16.0f);
  if (!m_fonts.ui) {  // fonts-dejavu-core missing: ImGui's built-in font, scaled
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    m_fonts.ui = io.Fonts->AddFontDefault(&cfg);
  }
  m_fonts.mono = load(mono, 15.0f);
  if (!m_fonts.mono) m_fonts.mono = m_fonts.ui;
  m_fonts.title = load(bold, 17.0f);
  if (m_fonts.title) merge_cjk(17.0f);
  if (!m_fonts.title) m_fonts.title = m_fonts.ui;
  io.FontDefault = m_fonts.ui;
}

Platform::~Platform() {
  if (m_imgui) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (m_fbo) glDeleteFramebuffers(1, &m_fbo);
  if (m_color) glDeleteRenderbuffers(1, &m_color);
  if (m_window) glfwDestroyWindow(m_window);
  glfwTerminate();
}

bool Platform::should_close() const {
  return glfwWindowShouldClose(m_window);
}

float Platform::width() const {
  if (m_headless) return static_cast<float>(m_fb_w);
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  return static_cast<float>(w);
}
float Platform::height() const {
  if (m_headless) return static_cast<float>(m_fb_h);
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  return static_cast<float>(h);
}

void Platform::begin_frame(const std::function<void(ImGuiIO&)>& inject) {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  // Lay out in framebuffer pixels: --scale and HiDPI both grow fonts and sizes, not the pixels.
  io.DisplaySize = ImVec2(width(), height());
  io.DisplayFramebufferScale = ImVec2(1, 1);
  if (!m_headless) {
    int ww = 0, wh = 0;
    glfwGetWindowSize(m_window, &ww, &wh);
    if (ww > 0 && wh > 0) {
      const float sx = width() / ww, sy = height() / wh;
      io.MousePos = ImVec2(io.MousePos.x * sx, io.MousePos.y * sy);
    }
  }
  if (inject) inject(io);
  ImGui::NewFrame();
}

void Platform::render() {
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);  // 0 for the window
  glViewport(0, 0, static_cast<int>(width()), static_cast<int>(height()));
  const Rgba bg = palette::background;
  glClearColor(bg.r / 255.f, bg.g / 255.f, bg.b / 255.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Platform::present() {
  if (!m_headless) glfwSwapBuffers(m_window);
}

}  // namespace tilesim::app
