// Custom machines from scenarios: a preset with some fields replaced, each field checked.
#include "scenario/machine_json.hpp"

#include <gtest/gtest.h>

using tilesim::sim::InvalidField;

TEST(CustomMachine, StartsFromItsBasePresetAndValidatesFields) {
  const auto m =
      tilesim::scenario::parse_machine_json(R"({"base": "a100", "sms": 8, "l2_bytes": 262144})");
  EXPECT_EQ(m.sms, 8);
  EXPECT_EQ(m.l2_bytes, 262144);
  EXPECT_EQ(m.smem_per_sm_bytes, 164 * 1024);
  EXPECT_THROW(tilesim::scenario::parse_machine_json(R"({"sms": 0})"), InvalidField);
  EXPECT_THROW(tilesim::scenario::parse_machine_json(R"({"colour": 1})"), InvalidField);
  EXPECT_THROW(tilesim::scenario::parse_machine_json(R"({"sms": "many"})"), InvalidField);
}
