// GPU tests of the teaching sorts (split radix sort, the lecture's bitonic sort) against
// std::sort, for several block sizes and lengths.
#include "lab/timed_run.h"
#include "library/sort_test_util.cuh"

using namespace sorttest;
using primlab::Status;

namespace {

enum class Which { Split, Bitonic };

const char* row_name(Which w) { return w == Which::Split ? "radix-split" : "bitonic-sort"; }

primlab::TimedArgs sort_args(const std::uint32_t* d_in, std::uint32_t* d_out, std::int64_t n, int block) {
  primlab::TimedArgs args;
  args.type = "u32";
  args.n = n;
  args.d_in = d_in;
  args.d_out = d_out;
  args.block = block;
  return args;
}

void check_teaching(Which w, Dist d, std::int64_t n, int block, bool in_place = false) {
  SCOPED_TRACE(std::string(row_name(w)) + " " + dist_name(d) + " n=" + std::to_string(n) + " block=" +
               std::to_string(block));
  const auto keys = make_keys<std::uint32_t>(d, n, 11);
  auto d_in = to_device(keys);
  primlab::DeviceBuffer<std::uint32_t> d_out(std::max<std::int64_t>(n, 1));
  poison(d_out);
  std::uint32_t* out = in_place ? d_in.get() : d_out.get();
  test::WorkspaceHolder ws;
  ASSERT_EQ(test::run_timed(row_name(w), sort_args(d_in.get(), out, n, block), ws), Status::Success);
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
  const primlab::TimedForm& split = test::timed_form("radix-split");
  const primlab::TimedForm& bitonic = test::timed_form("bitonic-sort");
  EXPECT_EQ(split.run(sort_args(a.get(), b.get(), 100, 2048)), Status::InvalidArgument);
  EXPECT_EQ(bitonic.run(sort_args(a.get(), b.get(), 100, 256)), Status::WorkspaceTooSmall);
  EXPECT_EQ(split.run(sort_args(nullptr, b.get(), 100, 256)), Status::InvalidArgument);
  primlab::TimedArgs f32 = sort_args(a.get(), b.get(), 100, 256);
  f32.type = "f32";
  EXPECT_EQ(split.run(f32), Status::InvalidArgument);
}

TEST(TeachingSortSanitize, Small) {
  check_teaching(Which::Split, Dist::Uniform, 5000, 128);
  check_teaching(Which::Bitonic, Dist::Uniform, 5000, 128);
}
