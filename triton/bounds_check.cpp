// A lane is outside when its element offset is negative or at or past the tensor's last
// element + 1 (the furthest offset its shape and strides reach): the addresses a real GPU run
// would fault on or silently corrupt.
#include "triton/bounds_check.hpp"

#include <map>
#include <utility>

namespace tilesim::triton {

std::string OutOfBounds::text() const {
  return "pid " + std::to_string(pid) + ", line " + std::to_string(pos.line) + ": " +
         std::to_string(lanes) + " lanes of " + tensor + (store ? " written" : " read") +
         " outside it" + (masked ? " (the mask leaves them on)" : " (no mask)");
}

std::string AlwaysTrueMask::text(std::int64_t programs) const {
  return "line " + std::to_string(pos.line) + ": the mask of this " +
         (store ? "store to " : "load of ") + tensor + " is true for every lane of all " +
         std::to_string(programs) +
         " programs: at these sizes (multiples of the blocks) it only costs its compares; keep it "
         "for the sizes that are not";
}

KernelCheck check_kernel(const Evaluator& ev, std::vector<std::int64_t> pids) {
  if (pids.empty())
    for (std::int64_t p = 0; p < ev.launch().programs(); ++p) pids.push_back(p);
  KernelCheck out;
  // Per masked access (its source position): whether any lane of any program was masked off.
  struct Seen {
    AlwaysTrueMask access;
    bool some_off = false;
  };
  std::map<std::pair<int, int>, Seen> masked;
  std::int64_t pid = 0;
  // Each access is checked as the evaluator makes it and its lanes dropped (EvalOptions), so a
  // program's memory stays one access's: every program of an 8192^3 launch is checked.
  EvalOptions opt;
  opt.keep_access_tiles = false;
  opt.on_access = [&](std::size_t, const Record& r) {
    const AccessRecord& a = r.access;
    const auto& t =
        std::get<TensorDesc>(ev.launch().args[static_cast<std::size_t>(a.tensor)].value);
    const __int128 end = t.end();
    const bool store = r.kind == RecordKind::store;
    if (a.has_mask && a.mask.known) {
      auto [it, fresh] = masked.try_emplace({r.pos.line, r.pos.col});
      if (fresh) it->second.access = {r.pos, store, a.tensor_name};
      if (!it->second.some_off)
        for (const std::int64_t m : a.mask.ints)
          if (m == 0) {
            it->second.some_off = true;
            break;
          }
    }
    if (!a.offsets.known) return;  // addresses from loaded data: nothing to say
    const std::int64_t* off = a.offsets.ints.data();
    const std::int64_t* mask = a.has_mask && a.mask.known ? a.mask.ints.data() : nullptr;
    std::int64_t lanes = 0;
    for (std::int64_t i = 0; i < a.offsets.lanes(); ++i) {
      const bool on = mask == nullptr || mask[i] != 0;
      lanes += on && (off[i] < 0 || off[i] >= end);
    }
    if (lanes > 0)
      out.out_of_bounds.push_back({pid, r.pos, store, a.has_mask, a.tensor_name, lanes});
  };
  for (const std::int64_t p : pids) {
    pid = p;
    (void)ev.run(p, opt);
  }
  for (const auto& [pos, seen] : masked)
    if (!seen.some_off) out.always_true.push_back(seen.access);
  return out;
}

std::vector<OutOfBounds> out_of_bounds(const Evaluator& ev, std::vector<std::int64_t> pids) {
  return check_kernel(ev, std::move(pids)).out_of_bounds;
}

}  // namespace tilesim::triton
