// Animated GIF writing (giflib) for exporting a whole trace.
#pragma once
#include <string>
#include <vector>

#include "lab/model/result.h"

namespace primlab::headless {
// Frames are RGBA, top row first, all w x h; delay in hundredths of a second; loops forever.
Result write_gif(const std::string& path, int w, int h, const std::vector<std::vector<unsigned char>>& frames,
                 int delay_cs);
}  // namespace primlab::headless
