// A lane is outside when its element offset is negative or at or past the tensor's last
// element + 1 (the furthest offset its shape and strides reach): the addresses a real GPU run
// would fault on or silently corrupt.
#include "triton/bounds_check.hpp"

namespace tilesim::triton {

std::string OutOfBounds::text() const {
  return "pid " + std::to_string(pid) + ", line " + std::to_string(pos.line) + ": " +
         std::to_string(lanes) + " lanes of " + tensor + (store ? " written" : " read") +
         " outside it" + (masked ? " (the mask leaves them on)" : " (no mask)");
}

std::vector<OutOfBounds> out_of_bounds(const Evaluator& ev, std::vector<std::int64_t> pids) {
  if (pids.empty())
    for (std::int64_t p = 0; p < ev.launch().programs(); ++p) pids.push_back(p);
  std::vector<OutOfBounds> out;
  for (const std::int64_t pid : pids) {
    for (const Record& r : ev.run(pid).records) {
      if (r.kind != RecordKind::load && r.kind != RecordKind::store) continue;
      const AccessRecord& a = r.access;
      const auto& t =
          std::get<TensorDesc>(ev.launch().args[static_cast<std::size_t>(a.tensor)].value);
      const __int128 end = t.end();
      if (!a.offsets.known) continue;  // addresses from loaded data: nothing to say
      std::int64_t lanes = 0;
      for (std::int64_t i = 0; i < a.offsets.lanes(); ++i) {
        const bool on = !a.has_mask || !a.mask.known || a.mask.ints[i] != 0;
        const std::int64_t off = a.offsets.ints[i];
        if (on && (off < 0 || off >= end)) ++lanes;
      }
      if (lanes > 0)
        out.push_back({pid, r.pos, r.kind == RecordKind::store, a.has_mask, a.tensor_name, lanes});
    }
  }
  return out;
}

}  // namespace tilesim::triton
