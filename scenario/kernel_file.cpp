// A Triton kernel file as a scenario (see kernel_file.hpp).
#include "scenario/kernel_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/program/plan_from_records.hpp"
#include "triton/launch.hpp"

namespace tilesim::scenario {

OpenedKernel open_kernel_file(const std::string& path, const std::string& function,
                              const std::vector<std::string>& words) {
  OpenedKernel out;
  out.kernel = load_kernel(path, function, words);
  const triton::LoadedKernel& k = *out.kernel;
  out.inference = triton::infer_problem(*k.ev);
  const triton::Inference& inf = out.inference;
  Scenario& s = out.scenario;
  s.name = std::filesystem::path(path).stem().string();
  s.title = k.source->file + ": " + k.source->fn.name;
  s.problem = inf.spec;
  s.file_plan = {inf.plan, inf.spec};
  s.description = k.source->file + ":" + std::to_string(k.source->fn.pos.line) + " " +
                  k.source->fn.name + " is sim's " + std::string(sim::to_string(inf.spec.kernel)) +
                  " (" + std::string(sim::to_string(inf.spec.order)) + " order, " +
                  std::string(sim::to_string(inf.spec.boundary)) + " boundary); " +
                  std::to_string(inf.programs_checked) + " of " + std::to_string(inf.programs) +
                  " programs evaluated, " + std::to_string(inf.records_checked) +
                  " loads, dots and stores equal to sim's steps";
  for (const auto o : inf.also_matching)
    s.description += "; the " + std::string(sim::to_string(o)) + " order gives the same pid table";
  for (const auto& n : inf.notes) s.description += "; " + n;
  return out;
}

std::shared_ptr<const triton::LoadedKernel> load_kernel(const std::string& path,
                                                        const std::string& function,
                                                        const std::vector<std::string>& words) {
  return std::make_shared<const triton::LoadedKernel>(
      triton::load_kernel_file(path, function, words));
}

std::vector<KernelFileStep> kernel_file_steps(const triton::LoadedKernel& k,
                                              const sim::ProblemSpec& spec, std::int64_t pid) {
  triton::EvalOptions opt;
  opt.scalars = true;
  triton::ProgramRun run = k.ev->run(pid, opt);
  KernelFileStep map;
  map.line = sim::map_line(k.source->fn, run);  // the plan's rule (sim/program)
  std::vector<KernelFileStep> steps{map};
  const bool trans_step = spec.kernel == sim::Kernel::transpose;
  for (auto& r : run.records)
    if (r.kind == triton::RecordKind::load || r.kind == triton::RecordKind::store ||
        r.kind == triton::RecordKind::dot || (trans_step && r.kind == triton::RecordKind::trans))
      steps.push_back({r.pos.line, std::move(r)});
  return steps;
}

std::vector<std::filesystem::path> bundled_kernel_files() {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(assets_dir() / "kernels", ec)) {
    if (e.path().extension() != ".py" || !e.is_regular_file(ec)) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().find("{launch_order}") == std::string::npos) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string call_argument(const std::vector<std::string>& lines, int line, int col, int index,
                          const std::string& keyword) {
  if (line < 1 || line > static_cast<int>(lines.size())) return {};
  // The call's text from its position on, lines joined (a call may span several), up to its ')'.
  // Comments are cut from each line first ('#' outside quotes).
  const auto code = [](const std::string& l) {
    char quote = 0;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (quote && l[i] == quote)
        quote = 0;
      else if (!quote && (l[i] == '"' || l[i] == '\''))
        quote = l[i];
      else if (!quote && l[i] == '#')
        return l.substr(0, i);
    }
    return l;
  };
  std::string text = code(lines[line - 1]);
  text.erase(0, std::min<std::size_t>(text.size(), static_cast<std::size_t>(std::max(col, 1) - 1)));
  for (int i = line; i < static_cast<int>(lines.size()) && i < line + 32; ++i)
    text += " " + code(lines[i]);
  const auto open = text.find('(');
  if (open == std::string::npos) return {};
  std::vector<std::string> args;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      cur += c;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
      args.push_back(cur);
      break;
    }
    if (c == ',' && depth == 0) {
      args.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  const auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    std::string collapsed;  // joined lines leave runs of spaces
    for (char c : s)
      if (!(c == ' ' && !collapsed.empty() && collapsed.back() == ' ')) collapsed += c;
    return collapsed;
  };
  int positional = 0;
  for (const std::string& raw : args) {
    const std::string a = trim(raw);
    const auto eq = a.find('=');
    const bool is_keyword =
        eq != std::string::npos && eq > 0 && a[eq + 1] != '=' && a.find_first_of("()[]<>!= ") >= eq;
    if (is_keyword) {
      if (!keyword.empty() && a.substr(0, eq) == keyword) return trim(a.substr(eq + 1));
    } else if (keyword.empty() && positional++ == index) {
      return a;
    }
  }
  return {};
}

std::string source_line(const std::vector<std::string>& lines, int line) {
  if (line < 1 || line > static_cast<int>(lines.size())) return {};
  std::string t = lines[static_cast<std::size_t>(line - 1)];
  t.erase(0, t.find_first_not_of(" \t"));
  if (const auto hash = t.find("  #"); hash != std::string::npos) t.resize(hash);
  return t;
}

std::filesystem::path resolve_kernel_path(const std::string& written,
                                          const std::filesystem::path& scenario_dir) {
  const std::filesystem::path w(written);
  std::vector<std::filesystem::path> tries;
  if (w.is_absolute()) {
    tries.push_back(w);
  } else {
    if (!scenario_dir.empty()) tries.push_back(scenario_dir / w);
    const auto assets = assets_dir();
    const std::string prefix = "assets/";
    if (written.rfind(prefix, 0) == 0) tries.push_back(assets / written.substr(prefix.size()));
    tries.push_back(assets / w);
    tries.push_back(assets / "kernels" / w);
  }
  for (const auto& p : tries) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p;
  }
  return {};
}

std::optional<TritonFileRun> find_triton_file_run(const TritonFileRuns& runs,
                                                  const triton::LoadedKernel& k,
                                                  const std::string& path) {
  try {
    const std::string name = std::filesystem::path(path).filename().string();
    const std::string ours = triton::describe(k.ev->launch());
    for (const TritonFileRun& r : runs.runs) {
      if (r.file != name || r.function != k.source->fn.name) continue;
      // The run's words over the file's own comments, read as the simulator reads them.
      triton::Launch theirs = triton::launch_from_comments(*k.source);
      std::istringstream in(r.launch);
      for (std::string w; in >> w;) triton::apply_launch_word(w, &theirs, r.file);
      if (triton::describe(theirs) == ours) return r;
    }
  } catch (const std::exception&) {  // a record that does not read matches nothing
  }
  return std::nullopt;
}

std::optional<TritonFileRun> find_triton_file_run(const TritonFileRuns& runs,
                                                  const std::string& path,
                                                  const std::string& function,
                                                  const std::vector<std::string>& words) {
  try {
    return find_triton_file_run(runs, *load_kernel(path, function, words), path);
  } catch (const std::exception&) {  // a file that does not read matches nothing
  }
  return std::nullopt;
}

}  // namespace tilesim::scenario
