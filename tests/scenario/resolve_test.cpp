// scenario::resolve: one error policy for the CLI, the app and the bench.
#include "scenario/resolve.hpp"

#include <gtest/gtest.h>

using namespace tilesim;

namespace {

// The refusal resolve() gives `s`; a failure of the test when it resolves.
sim::InvalidField refusal(const scenario::Scenario& s) {
  try {
    scenario::resolve(s);
  } catch (const sim::InvalidField& e) {
    return e;
  }
  ADD_FAILURE() << "resolved";
  return sim::InvalidField("", "");
}

}  // namespace

TEST(Resolve, BundledDefaultsGiveTheProblemThePresetAndItsOccupancy) {
  const auto r = scenario::resolve(scenario::Scenario{});
  EXPECT_EQ(r.machine.key, "h100");
  EXPECT_EQ(r.problem.programs(), 81);
  EXPECT_GE(r.occupancy.programs_per_sm, 1);
  EXPECT_FALSE(r.launch_error);
}

TEST(Resolve, BadCustomMachineIsRefusedNamingTheField) {
  scenario::Scenario s;
  s.custom_machine_json = R"({"base": "h100", "sms": 0})";
  const auto e = refusal(s);
  EXPECT_EQ(e.field(), "machine.sms");
  EXPECT_NE(std::string(e.what()).find("machine.sms = 0"), std::string::npos) << e.what();
  s.custom_machine_json = R"({"colour": 1})";
  EXPECT_EQ(refusal(s).field(), "custom_machine.colour");
}

TEST(Resolve, UnknownPresetAndProgramsPerSmOutOfRangeAreRefused) {
  scenario::Scenario s;
  s.machine = "nope";
  EXPECT_THROW(scenario::resolve(s), sim::InvalidField);
  s.machine = "h100";
  s.programs_per_sm = 65;
  EXPECT_STREQ(refusal(s).what(), "programs_per_sm = 65 is out of range: allowed 1..64");
}

TEST(Resolve, AKernelThatWouldNotLaunchIsKeptWithItsReason) {
  scenario::Scenario s;
  s.machine = "t4";
  s.problem.block_m = s.problem.block_n = s.problem.block_k = 256;
  s.problem.m = s.problem.n = s.problem.k = 1024;
  s.problem.stages = 4;
  const auto r = scenario::resolve(s);
  ASSERT_TRUE(r.launch_error);
  EXPECT_EQ(r.occupancy.programs_per_sm, 1);
  EXPECT_EQ(r.occupancy.reason, r.launch_error->what());
}
