// Parsing tilesim's flags and naming figures (see options.hpp).
#include "app/core/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "sim/base/limits.hpp"

namespace tilesim::app {
namespace {

template <class T>
bool parse_number(const std::string& s, T& out) {
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && p == end;
}

// The flags that take a path, kept as given; nullptr for any other flag.
std::optional<std::filesystem::path>* path_option(Options& o, const std::string& flag) {
  const std::pair<const char*, std::optional<std::filesystem::path>*> paths[] = {
      {"--scenario", &o.scenario},     {"--triton", &o.triton}, {"--screenshot", &o.screenshot},
      {"--export-dir", &o.export_dir}, {"--record", &o.record}, {"--text-out", &o.text_out},
  };
  for (const auto& [name, path] : paths)
    if (flag == name) return path;
  return nullptr;
}

}  // namespace

std::string usage() {
  return "usage: tilesim [--scenario FILE | --triton FILE.py [--function NAME] [--arg N=V ...]\n"
         "               [--grid G]] [--seek N | --event E] [--pid N]\n"
         "               [--event-order timed|lockstep|staggered] [--panel NAME] [--tab NAME]\n"
         "               [--size WxH] [--scale 1|2|3] [--screenshot OUT.png]\n"
         "               [--frames N [--play]]\n"
         "               [--lesson NAME [--lesson-step N] [--export-dir DIR]]\n"
         "               [--record OUT.gif|OUT.mp4 [--from A] [--to B] [--fps N] [--slow X]\n"
         "                [--max-mb M] [--max-frames N]]\n"
         "               [--projector] [--font-scale X] [--theme dark|light] [--check-text]\n"
         "               [--text-out FILE]\n"
         "               [--sms-colour wave|wait]\n"
         "               [--soak SEED [--actions N]]\n"
         "  --triton F     open a Triton kernel file (.py) as File -> Open kernel does: its\n"
         "                 @triton.jit function (--function NAME where there are several) at\n"
         "                 the launch of its \"# launch:\" comments, then --arg NAME=VALUE\n"
         "                 words and --grid G (as tilesim-cli run --triton); saving the file\n"
         "                 reloads it\n"
         "  --seek N       a position: the state after N events have run; 0 = nothing run yet.\n"
         "                 The event shown then has 0-based index N-1 (--seek 30 shows event 29)\n"
         "  --event E      the event with 0-based index E shown, as a lesson's {\"event\": E}\n"
         "                 and the controls' \"event #E\" (the same as --seek E+1)\n"
         "  --pid N        spell out the pid -> tile formula for pid N beside the launch grid\n"
         "                 (as tilesim-cli map --pid N); without --seek/--event, go to its first\n"
         "                 event\n"
         "  --event-order O  the order events run in: timed (simulated time, the default) or\n"
         "                 the round orders lockstep | staggered (as tilesim-cli run)\n"
         "  (no arguments) the first screen: lesson 08 (where grouped order matters) at its\n"
         "                 first step, beside the lesson index\n"
         "  --lesson NAME  open a lesson of assets/lessons/ (or a lesson file) at its first step\n"
         "                 or at --lesson-step N (1-based)\n"
         "  --export-dir D write one PNG per lesson step into D and exit (--scale 2 for slides)\n"
         "  --record OUT   record the animation from position --from A to --to B (events\n"
         "                 executed, as --seek) at --fps N (12); --slow X stretches time;\n"
         "                 with --panel NAME only that panel. The size is estimated from the\n"
         "                 first frames and a recording past --max-mb M (8 MB; 0: no limit)\n"
         "                 is refused before anything is written, as one of more than\n"
         "                 --max-frames N (600) frames\n"
         "  --font-scale X grow the fonts for projectors (0.5..4); --theme light for handouts\n"
         "  --check-text   with --screenshot / --export-dir: fail naming each text line a\n"
         "                 panel cuts (scrollable text is not cut)\n"
         "  --text-out F   with --screenshot: write every line of text the figure shows into\n"
         "                 F, one \"PANEL: TEXT\" a line (for tests)\n"
         "  --projector    slides: --scale 2 --font-scale 1.5 --theme light (each can be\n"
         "                 overridden); large text switches to the slide layout\n"
         "  --sms-colour C the SMs tab colours programs by wave (default) or by what they waited "
         "on\n"
         "  --panel NAME   the figure is one panel, cropped at the size the window's layout gives\n"
         "                 it (--size sets the window): " +
         panel_names() +
         "\n"
         "  --tab NAME     centre region shows launch_grid | compare | memory | sms | sweep | "
         "warps |\n"
         "                 gpu | compiler\n"
         "  --sweep VIEW   the sweep tab shows group (GROUP_SIZE_M and DRAM bytes, the default),\n"
         "                 blocks (block sizes, throughput) or measured (the axis tilesim-bench\n"
         "                 --sweep measured at the open problem, throughput beside the "
         "prediction)\n"
         "  --screenshot   render one frame to OUT.png and exit (works under xvfb-run)\n"
         "  --frames N     render N frames and print milliseconds per frame (each frame steps\n"
         "                 one event); --play: while playing, frames paced at 60 Hz\n"
         "  --soak SEED    test: drive the window with N (--actions, 600) seeded random user\n"
         "                 actions, check saves, memory and frame times, quit mid-job, exit\n";
}

ParsedOptions parse_options(const std::vector<std::string>& args) {
  ParsedOptions r;
  Options& o = r.options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) {
        r.error = a + " needs a value";
        return false;
      }
      out = args[++i];
      return true;
    };
    std::string v;
    // An integer flag in lo..hi; `wants` completes "--flag wants ...".
    auto bounded = [&](int lo, int hi, const std::string& wants) -> std::optional<int> {
      int n = 0;
      if (!value(v)) return std::nullopt;
      if (!parse_number(v, n) || n < lo || n > hi) {
        r.error = a + " wants " + wants + ", got '" + v + "'";
        return std::nullopt;
      }
      return n;
    };
    // A count or index >= 0 (64-bit: positions of big replays pass 2^31).
    auto non_negative = [&](const std::string& wants) -> std::optional<std::int64_t> {
      std::int64_t n = 0;
      if (!value(v)) return std::nullopt;
      if (!parse_number(v, n) || n < 0) {
        r.error = a + " wants " + wants + ", got '" + v + "'";
        return std::nullopt;
      }
      return n;
    };
    if (auto* path = path_option(o, a)) {
      if (!value(v)) return r;
      *path = v;
    } else if (a == "--function") {
      if (!value(o.triton_function)) return r;
    } else if (a == "--arg" || a == "--grid") {
      if (!value(v)) return r;
      o.triton_args.push_back(a == "--grid" ? "grid=" + v : v);
    } else if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--seek") {
      o.seek = non_negative("a step number >= 0");
      if (!o.seek) return r;
    } else if (a == "--event" || a == "--pid") {
      const auto n = non_negative("a 0-based index >= 0");
      if (!n) return r;
      if (a == "--pid")
        o.pid = n;
      else
        o.seek = *n + 1;
    } else if (a == "--panel") {
      if (!value(v)) return r;
      o.panel = parse_panel(v);
      if (!o.panel) {
        r.error = "--panel '" + v + "' is not one of: " + panel_names();
        return r;
      }
    } else if (a == "--event-order") {
      if (!value(v)) return r;
      try {
        o.event_order = sim::parse_event_order(v);
      } catch (const sim::InvalidField& e) {
        r.error = std::string("--event-order: ") + e.what();
        return r;
      }
    } else if (a == "--tab") {
      if (!value(v)) return r;
      const auto p = parse_panel(v);
      if (!p || !(*p == PanelId::launch_grid || *p == PanelId::compare || *p == PanelId::memory ||
                  *p == PanelId::sms || *p == PanelId::sweep || *p == PanelId::warps ||
                  *p == PanelId::gpu || *p == PanelId::compiler)) {
        r.error = "--tab '" + v +
                  "' is not one of: launch_grid | compare | memory | sms | sweep | warps | gpu | "
                  "compiler";
        return r;
      }
      o.tab = v;
    } else if (a == "--sweep") {
      if (!value(v)) return r;
      if (v != "group" && v != "blocks" && v != "measured") {
        r.error = "--sweep '" + v + "' is not one of: group | blocks | measured";
        return r;
      }
      o.sweep_view = v;
    } else if (a == "--size") {
      if (!value(v)) return r;
      const auto x = v.find('x');
      int w = 0, h = 0;
      if (x == std::string::npos || !parse_number(v.substr(0, x), w) ||
          !parse_number(v.substr(x + 1), h) || w < 320 || h < 240 || w > 8192 || h > 8192) {
        r.error = "--size wants WxH between 320x240 and 8192x8192, got '" + v + "'";
        return r;
      }
      o.width = w;
      o.height = h;
    } else if (a == "--scale") {
      if (!value(v)) return r;
      int s = 0;
      if (!parse_number(v, s) || s < 1 || s > 3) {
        r.error = "--scale wants 1, 2 or 3, got '" + v + "'";
        return r;
      }
      o.scale = static_cast<float>(s);
    } else if (a == "--frames") {
      o.frames = bounded(1, 100000, "1..100000");
      if (!o.frames) return r;
    } else if (a == "--play") {
      o.play = true;
    } else if (a == "--soak") {
      o.soak = bounded(0, 1 << 30, "a seed 0..1073741824");
      if (!o.soak) return r;
    } else if (a == "--actions") {
      o.actions = bounded(1, 10000000, "1..10000000");
      if (!o.actions) return r;
    } else if (a == "--lesson") {
      if (!value(v)) return r;
      o.lesson = v;
    } else if (a == "--lesson-step") {
      o.lesson_step = bounded(1, 64, "a step number 1..64 (1 = the first step)");
      if (!o.lesson_step) return r;
    } else if (a == "--from" || a == "--to") {
      const auto n = non_negative("a position >= 0 (events executed, as --seek)");
      if (!n) return r;
      (a == "--from" ? o.from : o.to) = n;
    } else if (a == "--max-frames") {
      const auto n = bounded(1, 100000, "a frame count 1..100000");
      if (!n) return r;
      o.max_frames = *n;
    } else if (a == "--max-mb") {
      if (!value(v)) return r;
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(x >= 0 && x <= 100000)) {
        r.error = "--max-mb wants megabytes in 0..100000 (0: no limit), got '" + v + "'";
        return r;
      }
      o.max_mb = x;
    } else if (a == "--fps" || a == "--slow" || a == "--font-scale") {
      if (!value(v)) return r;
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      const char* range = a == "--fps" ? "1..60" : a == "--slow" ? "1..8" : "0.5..4";
      const double lo = a == "--font-scale" ? 0.5 : 1, hi = a == "--fps"    ? 60
                                                            : a == "--slow" ? 8
                                                                            : 4;
      if (v.empty() || *end || !(x >= lo && x <= hi)) {
        r.error = a + " wants a number in " + range + ", got '" + v + "'";
        return r;
      }
      if (a == "--fps")
        o.fps = x;
      else if (a == "--slow")
        o.slow = x;
      else
        o.font_scale = static_cast<float>(x);
    } else if (a == "--theme") {
      if (!value(v)) return r;
      if (v != "dark" && v != "light") {
        r.error = "--theme wants dark or light, got '" + v + "'";
        return r;
      }
      o.light = v == "light";
    } else if (a == "--check-text") {
      o.check_text = true;
    } else if (a == "--projector") {
      // Slides: set after the loop, so an explicit --scale / --font-scale / --theme wins.
    } else if (a == "--sms-colour") {
      if (!value(v)) return r;
      if (v != "wave" && v != "wait") {
        r.error = "--sms-colour wants wave or wait, got '" + v + "'";
        return r;
      }
      o.sms_by_wait = v == "wait";
    } else {
      r.error = "unknown argument '" + a + "'";
      return r;
    }
  }
  if (o.actions && !o.soak) r.error = "--actions needs --soak SEED";
  const auto count = [&](const char* flag) { return std::count(args.begin(), args.end(), flag); };
  if (count("--projector")) {
    if (!count("--scale")) o.scale = 2;
    if (!count("--font-scale")) o.font_scale = 1.5f;
    if (!count("--theme")) o.light = true;
  }
  if (count("--seek") + count("--event") > 1) r.error = "give one of --seek N and --event E";
  if ((count("--function") || count("--arg") || count("--grid")) && !o.triton)
    r.error = "--function, --arg and --grid go with --triton FILE";
  if (o.triton && (o.scenario || o.lesson))
    r.error = "give one of --triton, --scenario and --lesson";
  if (o.lesson_step && !o.lesson) r.error = "--lesson-step needs --lesson NAME";
  if (o.export_dir && !o.lesson) r.error = "--export-dir needs --lesson NAME";
  if (o.text_out && !o.screenshot) r.error = "--text-out goes with --screenshot";
  if ((o.from || o.to) && !o.record) r.error = "--from and --to go with --record";
  if ((count("--max-mb") || count("--max-frames")) && !o.record)
    r.error = "--max-mb and --max-frames go with --record";
  if (o.play && !o.frames) r.error = "--play goes with --frames N";
  if (o.from && o.to && *o.to <= *o.from) r.error = "--to must be after --from";
  return r;
}

std::string figure_file_name(const std::string& scenario_name, std::int64_t position,
                             std::optional<PanelId> panel, float scale) {
  std::string stem = scenario_name.empty() ? "tilesim" : scenario_name;
  for (char& c : stem) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) c = '_';
  }
  char step[32];
  std::snprintf(step, sizeof step, "-step%06lld", static_cast<long long>(position));
  std::string out = stem + step + "-" + std::string(panel ? panel_name(*panel) : "window");
  if (scale != 1.0f) out += "@" + std::to_string(static_cast<int>(scale)) + "x";
  return out + ".png";
}

}  // namespace tilesim::app
