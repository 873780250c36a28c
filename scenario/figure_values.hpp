// The values of a lesson's figures, one resolver per source: the problem (computed), the machine
// preset and its parameter table (datasheet), a bench file's record (measured); and how a value
// becomes a Figure (its text as the app's tables write it). Internal to lesson_figures.cpp, which
// owns the names and the engine's figures.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scenario/lesson_figures.hpp"

namespace tilesim::scenario::figures {

enum class Unit { seconds, bytes, fraction, count, tflops, text };

Figure numeric(std::string name, double v, Unit u, FigureKind kind, std::string source);
Figure text_figure(std::string name, std::string text, FigureKind kind, std::string source);
Figure with_detail(Figure f, std::string detail);
// Throws ScenarioError "{name}: why".
[[noreturn]] void fail(std::string_view name, const std::string& why);
bool all_digits(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
// "8192", "32x32", "128x256x64": the numbers of a size filter; empty when it is not one.
std::vector<long long> dims(std::string_view s);

Figure problem_figure(std::string_view name, const std::string& field, const sim::Problem& p);
Figure machine_figure(std::string_view name, const std::string& field, const sim::Machine& m);
// parts: measured, GPU, VARIANT, FILTER..., FIELD (the name split at its points).
Figure measured_figure(std::string_view name, const std::vector<std::string>& parts,
                       const FigureContext& c);

}  // namespace tilesim::scenario::figures
