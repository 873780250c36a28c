// tilesim-cli run and sweep end to end: the counters' JSON keys, and the teaching claim of the
// engine — grouped order reads fewer DRAM bytes than row-major once B no longer fits in L2, and
// the same bytes when every input fits.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

nlohmann::json run_json(const std::string& args) {
  const std::string cmd = std::string(TILESIM_CLI) + " " + args + " --json 2>/dev/null";
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (f && std::fgets(buf.data(), buf.size(), f)) out += buf.data();
  const int status = f ? pclose(f) : -1;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << args << "\n" << out;
  return nlohmann::json::parse(out, nullptr, false);
}

double dram_read(const std::string& args) {
  return run_json("run " + args)["dram_read_bytes"].get<double>();
}

}  // namespace

TEST(CliRun, DefaultScenarioPrintsEveryCounterKey) {
  const auto j = run_json("run");
  for (const char* key : {"dram_read_bytes", "dram_write_bytes", "l2_read_bytes", "l2_hit_rate",
                          "flops", "events", "waves", "programs_per_sm", "store_lanes",
                          "valid_store_lanes", "predicted_time_s", "bound"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["valid_store_lanes"], 574 * 574);
  EXPECT_EQ(j["events"], 81 * 29);
}

TEST(CliRun, GroupedReadsLessDramThanRowMajorAt8192CubedFp16OnH100) {
  const std::string p =
      "--m 8192 --n 8192 --k 8192 --block-m 128 --block-n 128 --block-k 64 "
      "--dtype fp16 --machine h100 --group-m 8 --order ";
  const double row = dram_read(p + "row-major"), grouped = dram_read(p + "grouped");
  EXPECT_LT(grouped, 0.9 * row) << grouped << " vs " << row;
}

TEST(CliRun, OrdersReadTheSameDramWhenInputsFitInL2) {
  const std::string p =
      "--m 2048 --n 2048 --k 2048 --block-m 128 --block-n 128 --block-k 64 "
      "--dtype fp16 --machine h100 --group-m 8 --order ";
  const double row = dram_read(p + "row-major"), grouped = dram_read(p + "grouped");
  EXPECT_EQ(row, grouped);
  EXPECT_EQ(row, 2.0 * 2048 * 2048 * 2);  // A and B, each read once
}

TEST(CliSweep, OneRowPerCombinationInJson) {
  const auto j =
      run_json("sweep --m 512 --n 512 --k 512 --group-m 1,2,4 --order row-major,grouped");
  ASSERT_TRUE(j.is_array());
  // row-major ignores GROUP_SIZE_M: one row; grouped: one per value.
  EXPECT_EQ(j.size(), 4u);
  for (const auto& row : j) EXPECT_TRUE(row.contains("dram_read_bytes"));
}
