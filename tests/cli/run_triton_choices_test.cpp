// tilesim-cli run's "what Triton does here" section and run --json's "triton" object: the
// compiler's choices (sim/compiler/triton_choices) as a student reads them, with the cause of
// every choice off the fast path. The rules themselves are checked against Triton's output in
// tests/scenario/triton_choices_test.cpp; these tests check what run shows of them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_cli.hpp"

namespace {

// The tutorial's tile on the H100 (wgmma, 3 shared buffers at 3 stages).
const std::string kTile =
    " --block-m 128 --block-n 128 --block-k 64 --num-warps 8 --stages 3 --machine h100";

// run's text from the section's title to the end.
std::string choices_text(const std::string& problem) {
  const auto r = tilesim::test::run_cli("run " + problem + kTile, tilesim::test::Stderr::drop);
  EXPECT_EQ(r.code, 0) << problem << "\n" << r.out;
  const auto at = r.out.find("what Triton does here");
  EXPECT_NE(at, std::string::npos) << r.out;
  return at == std::string::npos ? "" : r.out.substr(at);
}

nlohmann::json choices_json(const std::string& problem) {
  const auto r =
      tilesim::test::run_cli("run " + problem + kTile + " --json", tilesim::test::Stderr::drop);
  EXPECT_EQ(r.code, 0) << problem << "\n" << r.out;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.contains("triton")) << r.out;
  return j.contains("triton") ? j["triton"] : nlohmann::json::object();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// N = 4100 with the tutorial's % N wrap: Triton cannot prove B's neighbouring columns aligned
// (nor contiguous), so B falls to 2-byte ld.global, outside the pipeline, one row per lane.
TEST(CliRunTritonChoices, WrappedBWithNNotAMultipleOf16LoadsTwoBytesPerLaneRow) {
  const std::string t = choices_text("--m 4096 --n 4100 --k 4096 --dtype fp16 --boundary wrap");
  EXPECT_TRUE(has(t, "(Triton 3.6's choices, predicted by tilesim's rules)")) << t;
  EXPECT_TRUE(has(t, "  dot             wgmma.m64n128k16.f32.f16.f16\n")) << t;
  EXPECT_TRUE(has(t,
                  "  pipeline        3 stages: cp.async into 3 shared buffers for A only (B "
                  "not pipelined)\n"))
      << t;
  EXPECT_TRUE(has(t, "  A loads         cp.async 16 B x3")) << t;
  EXPECT_TRUE(has(t, "  B loads         ld.global 2 B, lanes across rows")) << t;
  EXPECT_TRUE(has(t, "  C stores        st.global 2 B\n")) << t;
  EXPECT_TRUE(has(t, " a thread (estimate)")) << t;
  EXPECT_TRUE(has(t,
                  "  notes           B: 2-byte ld.global loads, not pipelined: N = 4100 is "
                  "not a multiple of 16\n"))
      << t;
  EXPECT_TRUE(has(t, "B: each lane reads its own row")) << t;
  EXPECT_TRUE(has(t, "C: 2-byte stores: N = 4100 is not a multiple of 16")) << t;
}

// tf32's tensor cores take B K-major: a row-major B tile is copied into a transposed shared tile
// one 4-byte element at a time, and those writes conflict on the banks.
TEST(CliRunTritonChoices, Tf32StoresBKMajorWithFourByteCopies) {
  const std::string p = "--m 4096 --n 4096 --k 4096 --dtype fp32 --input-precision tf32";
  const std::string t = choices_text(p);
  EXPECT_TRUE(has(t, "  dot             wgmma.m64n128k8.f32.tf32.tf32\n")) << t;
  EXPECT_TRUE(has(t, "  pipeline        3 stages: cp.async into 3 shared buffers\n")) << t;
  EXPECT_TRUE(has(t, "B is stored K-major (transposed) in shared memory for tf32: 4-byte copies"))
      << t;
  const auto j = choices_json(p);
  const auto& b = j["operands"]["b"];
  EXPECT_EQ(b["path"], "cp.async");
  EXPECT_EQ(b["access_bytes"], 4);
  EXPECT_EQ(b["vector_elems"], 1);
  EXPECT_EQ(b["buffers"], 3);
  EXPECT_EQ(b["smem_transposed"], true);
  EXPECT_EQ(b["swizzle_bytes"], 128);
  // A write of 32 lanes x 4 bytes fits one wavefront without conflicts; the text shows the
  // count the JSON holds, on B's line and in the note.
  const int wavefronts = b["smem_wavefronts_per_access"].get<int>();
  EXPECT_GT(wavefronts, 1);
  EXPECT_TRUE(has(t, "  B loads         cp.async 4 B x3, smem 128 B swizzle (transposed), " +
                         std::to_string(wavefronts) + " wavefronts a write\n"))
      << t;
  EXPECT_TRUE(has(t, "4-byte copies, " + std::to_string(wavefronts) + " wavefronts each")) << t;
  EXPECT_EQ(j["operands"]["a"]["access_bytes"], 16);
  EXPECT_EQ(j["operands"]["a"]["smem_transposed"], false);
}

// Every size a multiple of 16: the fast path, and nothing to explain.
TEST(CliRunTritonChoices, MultiplesOf16TakeTheFastPathWithoutNotes) {
  const std::string t = choices_text("--m 4096 --n 4096 --k 4096 --dtype fp16");
  EXPECT_TRUE(has(t, "  dot             wgmma.m64n128k16.f32.f16.f16\n")) << t;
  EXPECT_TRUE(has(t, "  pipeline        3 stages: cp.async into 3 shared buffers\n")) << t;
  EXPECT_TRUE(has(t, "  A loads         cp.async 16 B x3, smem 128 B swizzle\n")) << t;
  EXPECT_TRUE(has(t, "  B loads         cp.async 16 B x3, smem 128 B swizzle\n")) << t;
  EXPECT_TRUE(has(t, "  C stores        st.global 16 B\n")) << t;
  EXPECT_FALSE(has(t, "notes")) << t;
}

// The JSON object's fields for the wrapped N = 4100 problem. M and K are smaller than above:
// the choices depend on the tile and on which sizes are multiples of 16, not on M or K's size
// (the replay does, and it is slow under the sanitizers).
TEST(CliRunTritonChoices, JsonHoldsTheDotPipelineOperandsAndNotes) {
  const auto j = choices_json("--m 512 --n 4100 --k 512 --dtype fp16 --boundary wrap");
  EXPECT_EQ(j["dot"], "wgmma");
  EXPECT_EQ(j["dot_instruction"], "wgmma.m64n128k16.f32.f16.f16");
  EXPECT_EQ(j["pipeline_buffers"], 3);
  EXPECT_GT(j["registers_estimate"].get<int>(), 0);
  EXPECT_EQ(j["spilled_registers_estimate"], 0);
  EXPECT_EQ(j["spilled_accumulators_estimate"], 0);
  EXPECT_EQ(j["loop_local_loads_estimate"], 0);
  ASSERT_TRUE(j["notes"].is_array());
  EXPECT_EQ(j["notes"][0],
            "B: 2-byte ld.global loads, not pipelined: N = 4100 is not a multiple "
            "of 16");
  const auto& ops = j["operands"];
  for (const char* op : {"a", "b", "c"})
    for (const char* key :
         {"path", "access_bytes", "vector_elems", "buffers", "lanes_along_contiguous",
          "swizzle_bytes", "smem_transposed", "smem_wavefronts_per_access", "lines_per_access",
          "sectors_per_access", "warp_accesses", "leading_stride", "divisible_by_16"})
      EXPECT_TRUE(ops[op].contains(key)) << op << "." << key;
  EXPECT_EQ(ops["a"]["path"], "cp.async");
  EXPECT_EQ(ops["a"]["access_bytes"], 16);
  EXPECT_EQ(ops["a"]["buffers"], 3);
  EXPECT_EQ(ops["a"]["leading_stride"], 512);
  EXPECT_EQ(ops["a"]["divisible_by_16"], true);
  EXPECT_EQ(ops["b"]["path"], "ld.global");
  EXPECT_EQ(ops["b"]["access_bytes"], 2);
  EXPECT_EQ(ops["b"]["buffers"], 1);
  EXPECT_EQ(ops["b"]["lanes_along_contiguous"], false);
  EXPECT_EQ(ops["b"]["lines_per_access"], 32);  // one 128-byte line per lane
  EXPECT_EQ(ops["b"]["leading_stride"], 4100);
  EXPECT_EQ(ops["b"]["divisible_by_16"], false);
  EXPECT_EQ(ops["c"]["path"], "st.global");
  EXPECT_EQ(ops["c"]["access_bytes"], 2);
  EXPECT_EQ(ops["c"]["buffers"], 0);
}

// A copy or a transpose has no tl.dot and no register estimate (null), no B, and no loop to
// pipeline; a size not a multiple of 16 narrows its loads and stores alike.
TEST(CliRunTritonChoices, CopyAndTransposeShowTheirLoadAndStore) {
  const auto r = tilesim::test::run_cli("run --kernel copy --m 1000 --n 1000 --dtype fp16",
                                        tilesim::test::Stderr::drop);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out,
                  "  pipeline        no software pipeline: one load and one store a "
                  "program\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "  loads           ld.global 2 B\n")) << r.out;
  EXPECT_TRUE(has(r.out, "  stores          st.global 2 B\n")) << r.out;
  EXPECT_TRUE(has(r.out, "N = 1000 is not a multiple of 16")) << r.out;
  EXPECT_FALSE(has(r.out, "  dot ")) << r.out;
  const auto jr = tilesim::test::run_cli("run --kernel transpose --m 1024 --n 1024 --json",
                                         tilesim::test::Stderr::drop);
  const auto j = nlohmann::json::parse(jr.out, nullptr, false)["triton"];
  EXPECT_TRUE(j["dot"].is_null());
  EXPECT_TRUE(j["dot_instruction"].is_null());
  EXPECT_TRUE(j["registers_estimate"].is_null());
  EXPECT_EQ(j["pipeline_buffers"], 0);
  EXPECT_TRUE(j["notes"].empty());
  EXPECT_TRUE(j["operands"].contains("a"));
  EXPECT_FALSE(j["operands"].contains("b"));
  EXPECT_EQ(j["operands"]["c"]["access_bytes"], 16);
}

}  // namespace
