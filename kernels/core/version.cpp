// primlab's version string.
namespace primlab {
const char* version() { return "0.1"; }
}  // namespace primlab
