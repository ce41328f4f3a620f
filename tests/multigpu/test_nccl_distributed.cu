// The multi-GPU sort and partition over real NCCL communicators, on every GPU this process sees:
// one process driving all GPUs (ncclCommInitAll), and one thread per GPU with its own
// communicator (as one process per GPU runs). The same checks as the loopback tests: the ranks'
// results, concatenated, are the host's stable order, and the shares are balanced.
#include <gtest/gtest.h>
#include <nccl.h>

#include <algorithm>
#include <numeric>
#include <thread>
#include <vector>

#include "primlab/device_buffer.h"
#include "primlab/distributed.h"
#include "primlab/exchange_nccl.h"
#include "../library/sort_test_util.cuh"

namespace {

using namespace sorttest;
using primlab::Status;

int gpu_count() {
  int n = 0;
  EXPECT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  return n;
}

// One rank's device data for a pairs sort of its shard (values: global input positions).
struct Rank {
  int device = 0;
  std::int64_t n = 0, capacity = 0;
  primlab::DeviceBuffer<std::uint32_t> keys_in, keys_out, values_in, values_out, offsets;
  primlab::DeviceBuffer<unsigned char> ws;
  cudaStream_t stream = nullptr;
  primlab::Shard<std::uint32_t, std::uint32_t> shard;
};

void setup(Rank& r, int device, int ranks, const std::vector<std::uint32_t>& keys, std::uint32_t first_id,
           std::int64_t capacity, bool partition) {
  r.device = device;
  ASSERT_EQ(cudaSetDevice(device), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&r.stream), cudaSuccess);
  r.n = std::int64_t(keys.size());
  r.capacity = capacity;
  std::vector<std::uint32_t> ids(keys.size());
  std::iota(ids.begin(), ids.end(), first_id);
  r.keys_in = to_device(keys);
  r.values_in = to_device(ids);
  r.keys_out.resize(std::max<std::int64_t>(capacity, 1));
  r.values_out.resize(std::max<std::int64_t>(capacity, 1));
  r.offsets.resize(257);
  const std::size_t bytes =
      partition ? primlab::distributed_partition_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(r.n, capacity, ranks, 8)
                : primlab::distributed_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(r.n, capacity, ranks);
  r.ws = workspace(bytes);
  r.shard = {r.keys_in.get(), r.keys_out.get(), r.n, capacity, {r.ws.get(), bytes}, r.values_in.get(), r.values_out.get(),
             r.offsets.get()};
}

// Checks the ranks' concatenated pairs against the host's stable sort (or partition by the low byte).
void expect_global_order(const std::vector<std::uint32_t>& all, std::vector<Rank>& ranks, bool partition) {
  std::vector<std::uint32_t> idx(all.size());
  std::iota(idx.begin(), idx.end(), 0u);
  auto key = [&](std::uint32_t i) { return partition ? (all[i] & 0xFF) : all[i]; };
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  std::vector<std::uint32_t> got;
  const std::int64_t G = std::int64_t(ranks.size()), total = std::int64_t(all.size());
  for (Rank& r : ranks) {
    ASSERT_EQ(cudaSetDevice(r.device), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto v = to_host(r.values_out, std::size_t(r.shard.count));
    got.insert(got.end(), v.begin(), v.end());
    if (partition) {
      EXPECT_GE(r.shard.count, total / G);
      EXPECT_LE(r.shard.count, (total + G - 1) / G);
    } else {
      EXPECT_LE(r.shard.count, primlab::distributed_capacity(total, int(G)));
    }
  }
  EXPECT_EQ(got, idx);
}

// The single-GPU sorts on each GPU in turn from one thread: per-device kernel attributes (the
// onesweep pass's and the bitonic tiles' dynamic shared memory) are set on every device.
TEST(MultiGpu, EachDeviceSortsInTurn) {
  const auto h = make_keys<std::uint32_t>(Dist::Uniform, 1 << 20, 5);
  auto want = h;
  std::sort(want.begin(), want.end());
  for (int round = 0; round < 2; ++round)
    for (int g = 0; g < gpu_count(); ++g) {
      SCOPED_TRACE(testing::Message() << "device " << g);
      ASSERT_EQ(cudaSetDevice(g), cudaSuccess);
      auto in = to_device(h);
      primlab::DeviceBuffer<std::uint32_t> out(h.size());
      const std::size_t bytes = primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(std::int64_t(h.size()));
      auto ws = workspace(bytes);
      ASSERT_EQ(primlab::radix_sort_keys(in.get(), out.get(), std::int64_t(h.size()), primlab::SortOrder::Ascending, 0, 32,
                                         {ws.get(), bytes}, nullptr),
                Status::Success);
      EXPECT_EQ(to_host(out, h.size()), want);
    }
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

TEST(NcclDistributed, OneProcessDrivesEveryGpu) {
  const int G = gpu_count();
  ASSERT_GE(G, 1);
  std::vector<ncclComm_t> comms(G);
  ASSERT_EQ(ncclCommInitAll(comms.data(), G, nullptr), ncclSuccess);
  for (bool partition : {false, true})
    for (Dist d : {Dist::Uniform, Dist::AllEqual, Dist::Zipf})
      for (std::int64_t per_rank : {std::int64_t(0), std::int64_t(1), std::int64_t(100003)}) {
        SCOPED_TRACE(testing::Message() << "G " << G << " " << dist_name(d) << " n/rank " << per_rank
                                        << (partition ? " partition" : " sort"));
        const auto all = make_keys<std::uint32_t>(d, per_rank * G, 17);
        const std::int64_t cap = primlab::distributed_capacity(std::int64_t(all.size()), G);
        std::vector<Rank> ranks(G);
        std::vector<primlab::NcclRank> nccl_ranks;
        for (int g = 0; g < G; ++g) {
          setup(ranks[g], g, G, std::vector<std::uint32_t>(all.begin() + g * per_rank, all.begin() + (g + 1) * per_rank),
                std::uint32_t(g * per_rank), cap, partition);
          nccl_ranks.push_back({comms[g], ranks[g].stream});
        }
        std::unique_ptr<primlab::NcclExchange> ex;
        std::string error;
        ASSERT_EQ(primlab::NcclExchange::create(nccl_ranks, ex, &error), Status::Success) << error;
        std::vector<primlab::Shard<std::uint32_t, std::uint32_t>> shards;
        for (Rank& r : ranks) shards.push_back(r.shard);
        const Status st = partition ? primlab::distributed_partition_pairs(*ex, shards.data(), 0, 8)
                                    : primlab::distributed_sort_pairs(*ex, shards.data(), primlab::SortOrder::Ascending, 0, 32);
        ASSERT_EQ(st, Status::Success) << primlab::status_string(st) << " " << ex->last_error();
        for (int g = 0; g < G; ++g) ranks[g].shard.count = shards[g].count;
        expect_global_order(all, ranks, partition);
        for (Rank& r : ranks) cudaStreamDestroy(r.stream);
      }
  for (ncclComm_t c : comms) ncclCommDestroy(c);
}

TEST(NcclDistributed, OneThreadPerGpuAsOneProcessPerGpu) {
  const int G = gpu_count();
  ncclUniqueId id;
  ASSERT_EQ(ncclGetUniqueId(&id), ncclSuccess);
  const std::int64_t per_rank = 250000;
  const auto all = make_keys<std::uint32_t>(Dist::Zipf, per_rank * G, 23);
  const std::int64_t cap = primlab::distributed_capacity(std::int64_t(all.size()), G);
  std::vector<Rank> ranks(G);
  std::vector<Status> status(G, Status::CudaError);
  std::vector<std::string> errors(G);
  std::vector<std::thread> threads;
  for (int g = 0; g < G; ++g) {
    threads.emplace_back([&, g] {
      setup(ranks[g], g, G, std::vector<std::uint32_t>(all.begin() + g * per_rank, all.begin() + (g + 1) * per_rank),
            std::uint32_t(g * per_rank), cap, false);
      ncclComm_t comm;
      if (ncclCommInitRank(&comm, G, id, g) != ncclSuccess) return;
      std::unique_ptr<primlab::NcclExchange> ex;
      status[g] = primlab::NcclExchange::create({{comm, ranks[g].stream}}, ex, &errors[g]);
      if (status[g] == Status::Success) {
        status[g] = primlab::distributed_sort_pairs(*ex, &ranks[g].shard, primlab::SortOrder::Ascending, 0, 32);
        errors[g] = ex->last_error();
      }
      cudaStreamSynchronize(ranks[g].stream);
      ex.reset();
      ncclCommDestroy(comm);
    });
  }
  for (auto& t : threads) t.join();
  for (int g = 0; g < G; ++g) ASSERT_EQ(status[g], Status::Success) << "rank " << g << ": " << errors[g];
  expect_global_order(all, ranks, false);
  for (Rank& r : ranks) cudaStreamDestroy(r.stream);
}

}  // namespace
