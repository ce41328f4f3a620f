// GPU tests of the teaching sorts (split radix sort, the lecture's bitonic sort) against
// std::sort, for several block sizes and lengths.
#include "lab/timed_sort.h"
#include "library/sort_test_util.cuh"

using namespace sorttest;
using primlab::Status;

namespace {

enum class Which { Split, Bitonic };

void check_teaching(Which w, Dist d, std::int64_t n, int block, bool in_place = false) {
  SCOPED_TRACE(std::string(w == Which::Split ? "split" : "bitonic") + " " + dist_name(d) + " n=" + std::to_string(n) +
               " block=" + std::to_string(block));
  const auto keys = make_keys<std::uint32_t>(d, n, 11);
  auto d_in = to_device(keys);
  primlab::DeviceBuffer<std::uint32_t> d_out(std::max<std::int64_t>(n, 1));
  poison(d_out);
  std::uint32_t* out = in_place ? d_in.get() : d_out.get();
  const std::size_t bytes = w == Which::Split ? primlab::teaching::split_radix_sort_workspace_bytes(n, block)
                                              : primlab::teaching::bitonic_global_sort_workspace_bytes(n, block);
  auto ws = workspace(bytes);
  const Status st = w == Which::Split
                        ? primlab::teaching::split_radix_sort(d_in.get(), out, n, block, {ws.get(), bytes}, nullptr)
                        : primlab::teaching::bitonic_global_sort(d_in.get(), out, n, block, {ws.get(), bytes}, nullptr);
  ASSERT_EQ(st, Status::Success);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto want = keys;
  std::sort(want.begin(), want.end());
  const std::int64_t bad = first_bit_mismatch(to_host(in_place ? d_in : d_out, std::size_t(n)), want);
  ASSERT_EQ(bad, -1) << "first wrong key at " << bad;
}

}  // namespace

TEST(TeachingSort, SplitRadixSort) {
  for (int block : {32, 256, 1024})
    for (std::int64_t n : {0, 1, 2, 3, 63, 64, 65, 2047, 2048, 2049, 100003, 1000003}) check_teaching(Which::Split, Dist::Uniform, n, block);
  for (Dist d : all_dists()) check_teaching(Which::Split, d, 300007, 256);
  check_teaching(Which::Split, Dist::Uniform, 100003, 128, true);
}

TEST(TeachingSort, BitonicGlobal) {
  for (int block : {32, 256, 1024})
    for (std::int64_t n : {0, 1, 2, 3, 63, 64, 65, 2047, 2048, 2049, 100003, 1000003}) check_teaching(Which::Bitonic, Dist::Uniform, n, block);
  for (Dist d : all_dists()) check_teaching(Which::Bitonic, d, 300007, 256);
  check_teaching(Which::Bitonic, Dist::Uniform, 100003, 128, true);
}

TEST(TeachingSort, BadArguments) {
  primlab::DeviceBuffer<std::uint32_t> a(100), b(100);
  EXPECT_EQ(primlab::teaching::split_radix_sort(a.get(), b.get(), 100, 100, primlab::Workspace{}, nullptr), Status::InvalidArgument);
  EXPECT_EQ(primlab::teaching::bitonic_global_sort(a.get(), b.get(), 100, 256, primlab::Workspace{}, nullptr), Status::WorkspaceTooSmall);
  EXPECT_EQ(primlab::teaching::split_radix_sort(nullptr, b.get(), 100, 256, primlab::Workspace{}, nullptr), Status::InvalidArgument);
}

TEST(TeachingSortSanitize, Small) {
  check_teaching(Which::Split, Dist::Uniform, 5000, 128);
  check_teaching(Which::Bitonic, Dist::Uniform, 5000, 128);
}
