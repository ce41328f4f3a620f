// The device half of a session in a build without CUDA: there is no device and no device row.
#include "engine/device.h"

namespace primlab::bench {

struct Device {};
void DeviceClose::operator()(Device* d) const { delete d; }
DevicePtr open_device() { return nullptr; }
void describe_device(const Device&, Results*) {}
double device_copy_gbps(Device&) { return 0; }
Result time_device_row(Device&, const Impl&, Case&, const Settings&, const std::atomic<bool>*, std::vector<double>*) {
  return Result::failure("GPU rows need a CUDA build");
}
void add_device_rows(Table&) {}

}  // namespace primlab::bench
