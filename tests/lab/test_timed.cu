// GPU tests of the teaching variants' timed forms (the catalog's TimedForm) against host
// references, over block sizes.
#include <gtest/gtest.h>

#include "lab/timed_run.h"

using namespace test;

template <class T>
class TeachingTest : public ::testing::Test {};
using TeachingTypes = ::testing::Types<std::int32_t, std::uint32_t, float>;
TYPED_TEST_SUITE(TeachingTest, TeachingTypes);

template <class T>
std::vector<T> ref_exclusive_sum(const std::vector<T>& in) {
  std::vector<T> out(in.size());
  T acc = T(0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = acc;
    acc = ref_op(primlab::Sum{}, acc, in[i]);
  }
  return out;
}

const std::vector<std::int64_t> kSizes = {0, 1, 2, 31, 33, 255, 256, 257, 1023, 1024, 1025, 4099, 65537, 300001};

TYPED_TEST(TeachingTest, Scans) {
  using T = TypeParam;
  WorkspaceHolder wsh;
  for (int block : {32, 128, 256, 1024}) {
    for (std::int64_t n : kSizes) {
      if (n > max_test_n()) continue;
      const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 51);
      const std::vector<T> want = ref_exclusive_sum(h_in);
      auto d_in = to_device(h_in);
      primlab::DeviceBuffer<T> d_out(static_cast<std::size_t>(n));
      for (const char* name : {"scan-naive", "scan-blelloch", "scan-shared"}) {
        poison(d_out);
        primlab::TimedArgs args;
        args.type = timed_type<T>();
        args.n = n;
        args.d_in = d_in.get();
        args.d_out = d_out.get();
        args.block = block;
        ASSERT_EQ(run_timed(name, args, wsh), primlab::Status::Success) << name;
        sync_ok();
        EXPECT_EQ(first_mismatch(to_host(d_out.get(), n), want), -1) << name << " block " << block << " n " << n;
      }
    }
  }
}

TYPED_TEST(TeachingTest, Reductions) {
  using T = TypeParam;
  WorkspaceHolder wsh;
  primlab::DeviceBuffer<T> d_out(1);
  for (int block : {64, 256, 1024}) {
    for (std::int64_t n : kSizes) {
      if (n > max_test_n()) continue;
      const std::vector<T> h_in = make_input<T>(Pattern::Uniform, n, 52);
      T want = T(0);
      for (const T& x : h_in) want = ref_op(primlab::Sum{}, want, x);
      auto d_in = to_device(h_in);
      for (const primlab::Algorithm& a : primlab::algorithms()) {
        if (!a.timed.primitive || std::string(a.timed.primitive) != "reduce_sum") continue;
        poison(d_out);
        primlab::TimedArgs args;
        args.type = timed_type<T>();
        args.n = n;
        args.d_in = d_in.get();
        args.d_scalar = d_out.get();
        args.block = block;
        ASSERT_EQ(run_timed(a.name, args, wsh), primlab::Status::Success) << a.name;
        sync_ok();
        EXPECT_TRUE(same_value(to_host(d_out.get(), 1)[0], want)) << a.name << " block " << block << " n " << n;
      }
    }
  }
}

TEST(TeachingHistogram, AtomicVariants) {
  primlab::DeviceBuffer<std::uint32_t> d_hist(256), d_ref(256);
  for (std::int64_t n : kSizes) {
    if (n > max_test_n()) continue;
    const auto h8 = make_input<std::uint8_t>(Pattern::Uniform, n, 53);
    const auto h32 = make_input<std::uint32_t>(Pattern::Uniform, n, 54);
    std::vector<std::uint32_t> want8(256, 0), want32(256, 0);
    for (auto x : h8) ++want8[x];
    for (auto x : h32) ++want32[x >> 24];
    auto d8 = to_device(h8);
    auto d32 = to_device(h32);
    WorkspaceHolder wsh;
    for (const char* name : {"histogram-atomic", "histogram-shared"}) {
      primlab::TimedArgs args;
      args.n = n;
      args.d_out = d_hist.get();
      args.bins = 256;
      poison(d_hist);
      args.type = "u8";
      args.d_in = d8.get();
      args.lower = 0;
      args.upper = 256;
      args.block = 256;
      ASSERT_EQ(run_timed(name, args, wsh), primlab::Status::Success);
      sync_ok();
      EXPECT_EQ(first_mismatch(to_host(d_hist.get(), 256), want8), -1) << "u8 " << name << " n=" << n;
      poison(d_hist);
      args.type = "u32";
      args.d_in = d32.get();
      args.upper = double(std::uint64_t(1) << 32);
      args.block = 128;
      ASSERT_EQ(run_timed(name, args, wsh), primlab::Status::Success);
      sync_ok();
      EXPECT_EQ(first_mismatch(to_host(d_hist.get(), 256), want32), -1) << "u32 " << name << " n=" << n;
    }
  }
}
