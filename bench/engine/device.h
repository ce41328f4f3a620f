// The device half of a measuring session, behind a CUDA-free interface: the device's name and
// versions, its copy bandwidth, the case's inputs in device memory (kept while consecutive rows
// share a type and n) and the timing of a device row with CUDA events. Defined in device.cu in
// CUDA builds, and in device_none.cpp (no device, ever) in builds without CUDA.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engine/inputs.h"
#include "engine/results.h"
#include "engine/table.h"

namespace primlab::bench {

// How one row is timed.
struct Settings {
  int block = 0, items = 0;  // 0: each implementation's default
  int warmup = 3;            // device rows: warm-up runs (the first one's time sets `runs` when 0)
  int runs = 0;              // device rows: timed runs, 0: about 0.3 s' worth (5 to 200)
  int host_runs = 3;         // host rows: timed runs, 0: at least 3 and 0.2 s (at most 50)
  std::uint64_t seed = kDefaultSeed;  // the generator's stream of the case's inputs
};

struct Device;
struct DeviceClose {
  void operator()(Device* d) const;
};
using DevicePtr = std::unique_ptr<Device, DeviceClose>;

// The first CUDA device, with a stream of its own; null when there is none.
DevicePtr open_device();
// Fills gpu, cuda_version, driver and cub.
void describe_device(const Device& d, Results* header);
// Device-to-device copy bandwidth (GB/s, read + write) of 1 GiB, median of 10 copies.
double device_copy_gbps(Device& d);
// Times `im` (a device row) on the case c.primitive, c.type, c.n with c.block and c.items set:
// the median-of-many times in *ms, or a failure ("skipped: needs 9.0 GiB, 4.1 GiB free on the GPU").
Result time_device_row(Device& d, const Impl& im, Case& c, const Settings& s, const std::atomic<bool>* cancel,
                       std::vector<double>* ms);

}  // namespace primlab::bench
