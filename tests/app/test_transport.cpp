// The transport shared by the Step and Race tabs: stepping, playing to the end, and the window's
// idle wait, which must wake for the next step of whichever tab plays.
#include <gtest/gtest.h>

#include <algorithm>

#include "model/transport.h"

using namespace primlab::ui;

TEST(Transport, GoClampsToTheTrace) {
  Transport t;
  t.go(7, 5);
  EXPECT_EQ(t.step, 5);
  t.go(-2, 5);
  EXPECT_EQ(t.step, 0);
  t.go(3, -1);  // an empty trace
  EXPECT_EQ(t.step, 0);
}

TEST(Transport, PlaysAtItsSpeedAndStopsAtTheLastStep) {
  Transport t;
  t.speed = 4.f;
  t.toggle_play(3);
  ASSERT_TRUE(t.playing);
  t.tick(0.2, 3);
  EXPECT_EQ(t.step, 0);
  t.tick(0.1, 3);  // 0.3 s at 4 steps/s
  EXPECT_EQ(t.step, 1);
  t.tick(10.0, 3);
  EXPECT_EQ(t.step, 3);
  EXPECT_FALSE(t.playing);
  t.toggle_play(3);  // Play at the end starts over
  EXPECT_EQ(t.step, 0);
  EXPECT_TRUE(t.playing);
}

TEST(Transport, IdleWaitWakesForTheNextStepOfEitherTab) {
  Transport step_tab, race_tab;
  EXPECT_DOUBLE_EQ(idle_wait_seconds({&step_tab, &race_tab}), 0.1);  // nothing plays
  race_tab.speed = 20.f;
  race_tab.playing = true;
  EXPECT_DOUBLE_EQ(idle_wait_seconds({&step_tab, &race_tab}), 0.05);  // 20 steps/s, not 10
  race_tab.accum = 0.04;
  EXPECT_NEAR(idle_wait_seconds({&step_tab, &race_tab}), 0.01, 1e-12);
  race_tab.accum = 0.2;  // overdue: do not sleep
  EXPECT_DOUBLE_EQ(idle_wait_seconds({&step_tab, &race_tab}), 0.0);
  race_tab.playing = false;
  step_tab.speed = 16.f;
  step_tab.playing = true;
  EXPECT_DOUBLE_EQ(idle_wait_seconds({&step_tab, &race_tab}), 1.0 / 16);
}

TEST(Transport, RaceAtTwentyStepsASecondTakesTwentyStepsInASecondOfIdleWaits) {
  // The window's loop: sleep for the idle wait, then tick by the time slept.
  Transport race;
  race.speed = 20.f;
  race.toggle_play(100);
  double clock = 0;
  while (clock < 1.0 - 1e-9) {
    const double dt = std::max(idle_wait_seconds({&race}), 1e-3);
    race.tick(dt, 100);
    clock += dt;
  }
  EXPECT_GE(race.step, 19);
}
