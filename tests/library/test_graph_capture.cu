// The library's calls can be captured into a CUDA graph (stream capture in the strict global mode)
// and the graph replayed on new contents of the same buffers. Small sorts are bound by the host's
// launches, so users who replay a captured sort get its latency down (bench/NOTES-sort.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "primlab/radix_sort.h"
#include "primlab/reduce.h"
#include "primlab/scan.h"
#include "test_util.h"

namespace {

// Captures call(stream) once, then for two rounds refills the inputs (refill(round)), replays the
// graph and checks the outputs (check(round)).
void capture_and_replay(const std::function<primlab::Status(cudaStream_t)>& call,
                        const std::function<void(int)>& refill, const std::function<void(int)>& check) {
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  const primlab::Status st = call(stream);
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  ASSERT_EQ(st, primlab::Status::Success);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int round = 0; round < 2; ++round) {
    refill(round);
    // The refill's copies and memsets ran on the legacy default stream, which does not order the
    // non-blocking capture stream (a pageable copy may return before its DMA lands).
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    check(round);
  }
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

template <class T>
void upload(primlab::DeviceBuffer<T>& d, const std::vector<T>& h) {
  ASSERT_EQ(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
}

// Sizes on the tiny, small and tuned pass shapes (chained and not).
TEST(GraphCapture, SortKeysReplaysOnNewKeys) {
  for (const std::int64_t n : {std::int64_t(5000), std::int64_t(1) << 16, (std::int64_t(1) << 20) + 3,
                               (std::int64_t(1) << 22) + 5}) {
    SCOPED_TRACE(n);
    primlab::DeviceBuffer<std::uint32_t> in(n), out(n);
    const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(n);
    primlab::DeviceBuffer<unsigned char> ws(bytes);
    std::vector<std::uint32_t> keys;
    capture_and_replay(
        [&](cudaStream_t s) {
          return primlab::radix_sort_keys(in.get(), out.get(), n, primlab::SortOrder::Ascending, 0, 32,
                                          {ws.get(), bytes}, s);
        },
        [&](int round) {
          keys = test::make_input<std::uint32_t>(round == 0 ? test::Pattern::Uniform : test::Pattern::FewDistinct, n, 7);
          upload(in, keys);
          test::poison(out);
        },
        [&](int) {
          std::sort(keys.begin(), keys.end());
          EXPECT_EQ(test::first_mismatch(test::to_host(out.get(), n), keys), -1);
        });
  }
}

TEST(GraphCapture, SortPairsReplaysStably) {
  const std::int64_t n = std::int64_t(1) << 16;
  primlab::DeviceBuffer<std::uint32_t> kin(n), kout(n), vin(n), vout(n);
  const std::size_t bytes = primlab::radix_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n);
  primlab::DeviceBuffer<unsigned char> ws(bytes);
  std::vector<std::uint32_t> keys, order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0u);
  upload(vin, order);
  capture_and_replay(
      [&](cudaStream_t s) {
        return primlab::radix_sort_pairs(kin.get(), kout.get(), vin.get(), vout.get(), n, primlab::SortOrder::Descending,
                                         0, 32, {ws.get(), bytes}, s);
      },
      [&](int round) {
        keys = test::make_input<std::uint32_t>(test::Pattern::FewDistinct, n, 11 + round);
        upload(kin, keys);
      },
      [&](int) {
        std::vector<std::uint32_t> want = order;
        std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[b] < keys[a]; });
        EXPECT_EQ(test::first_mismatch(test::to_host(vout.get(), n), want), -1);
      });
}

TEST(GraphCapture, ScanAndReduceReplayOnNewItems) {
  for (const std::int64_t n : {std::int64_t(1) << 16, (std::int64_t(1) << 20) + 1}) {
    SCOPED_TRACE(n);
    primlab::DeviceBuffer<std::uint32_t> in(n), scanned(n), sum(1);
    const std::size_t bytes = std::max(primlab::scan_workspace_bytes<std::uint32_t>(n),
                                       primlab::reduce_workspace_bytes<std::uint32_t>(n));
    primlab::DeviceBuffer<unsigned char> ws_scan(bytes), ws_reduce(bytes);
    std::vector<std::uint32_t> items;
    capture_and_replay(
        [&](cudaStream_t s) {
          const primlab::Status st =
              primlab::exclusive_scan(in.get(), scanned.get(), n, 5u, primlab::Sum{}, {ws_scan.get(), bytes}, s);
          if (st != primlab::Status::Success) return st;
          return primlab::reduce(in.get(), sum.get(), n, primlab::Sum{}, {ws_reduce.get(), bytes}, s);
        },
        [&](int round) {
          items = test::make_input<std::uint32_t>(test::Pattern::Uniform, n, 21 + round);
          upload(in, items);
        },
        [&](int) {
          std::vector<std::uint32_t> want(items.size());
          std::exclusive_scan(items.begin(), items.end(), want.begin(), 5u);
          EXPECT_EQ(test::first_mismatch(test::to_host(scanned.get(), n), want), -1);
          EXPECT_EQ(test::to_host(sum.get(), 1)[0], std::accumulate(items.begin(), items.end(), 0u));
        });
  }
}

}  // namespace
