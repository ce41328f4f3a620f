// Transport: where a stepped trace is (the step shown) and whether it plays, as plain data. The
// Step tab has one, the Race tab one shared by both sides. Every function takes `last`, the last
// step the transport may reach.
#pragma once
#include <initializer_list>

namespace primlab::ui {

struct Transport {
  int step = 0;
  bool playing = false;
  float speed = 2.f;   // steps per second
  double accum = 0.0;  // seconds of playing since the last automatic step
  // The step the user went to, and whether it was the last: a rebuilt trace (a block size dragged
  // through) shows it again where it is long enough, and the last step stays the last.
  int wanted = 0;
  bool wants_last = false;

  void go(int to, int last);     // clamps to [0, last]; sets wanted and wants_last
  void refit(int last);          // the wanted step in a trace whose last step is `last`
  void toggle_play(int last);    // Play at the last step starts over from step 0
  void tick(double dt, int last);  // advances by dt seconds of playing; stops at last
  double period() const;         // seconds per automatic step
};

// How long the window may sleep waiting for input: until the next automatic step of the first
// transport due to step, or `idle` seconds when none plays. Input wakes the window sooner.
double idle_wait_seconds(std::initializer_list<const Transport*> transports, double idle = 0.1);

}  // namespace primlab::ui
