// Transport: stepping, playing and the window's idle wait.
#include "model/transport.h"

#include <algorithm>

namespace primlab::ui {

void Transport::go(int to, int last) {
  step = std::clamp(to, 0, std::max(0, last));
  wanted = step;
  wants_last = step >= last;
}

void Transport::refit(int last) { step = wants_last ? std::max(0, last) : std::clamp(wanted, 0, std::max(0, last)); }

void Transport::toggle_play(int last) {
  if (!playing && step >= last) go(0, last);
  playing = !playing;
  accum = 0;
}

double Transport::period() const { return 1.0 / std::max(0.1f, speed); }

void Transport::tick(double dt, int last) {
  if (!playing) return;
  accum += dt;
  while (accum >= period() && playing) {
    accum -= period();
    if (step >= last) {
      playing = false;
      break;
    }
    go(step + 1, last);
  }
}

double idle_wait_seconds(std::initializer_list<const Transport*> transports, double idle) {
  double wait = idle;
  for (const Transport* t : transports)
    if (t->playing) wait = std::min(wait, std::max(0.0, t->period() - t->accum));
  return wait;
}

}  // namespace primlab::ui
