// The multi-GPU sort and partition over real NCCL communicators: one process driving 2 and then
// every GPU it sees (ncclCommInitAll), one thread per GPU with its own communicator, one process
// per GPU (the test starts itself once per rank, the communicator from ncclGetUniqueId passed
// through a file), both schemes with one piece and with several, the workspaces registered with
// NCCL or not, and the workspaces an NcclExchange keeps; and an NCCL failure mid-pipeline.
// One process driving the GPUs over CUDA peer copies (PeerExchange) takes the same checks. The
// same checks as the loopback tests: the ranks' results, concatenated, are the host's stable
// order, and the shares are balanced.
#include <gtest/gtest.h>
#include <nccl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "primlab/device_buffer.h"
#include "primlab/distributed.h"
#include "primlab/exchange_nccl.h"
#include "../library/sort_test_util.cuh"

extern char** environ;

namespace {

using namespace sorttest;
using primlab::DistributedOptions;
using primlab::DistributedScheme;
using primlab::Status;

int gpu_count() {
  int n = 0;
  EXPECT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  return n;
}

// The rank counts every form runs on: 2, and every GPU when there are more.
std::vector<int> rank_counts() {
  const int n = gpu_count();
  std::vector<int> counts;
  if (n >= 2) counts.push_back(2);
  if (n != 2) counts.push_back(n);
  return counts;
}

// The ways a sort runs: the default, and each scheme in one piece and in several.
const std::vector<DistributedOptions>& every_way() {
  static const std::vector<DistributedOptions> ways = {
      {}, {DistributedScheme::PartitionFirst, 1}, {DistributedScheme::PartitionFirst, 4},
      {DistributedScheme::SortFirst, 1}, {DistributedScheme::SortFirst, 4}};
  return ways;
}
std::string way_name(const DistributedOptions& o) {
  const char* scheme = o.scheme == DistributedScheme::Auto ? "auto"
                       : o.scheme == DistributedScheme::SortFirst ? "sort-first" : "partition-first";
  return std::string(scheme) + " pieces " + std::to_string(o.pieces);
}

// One rank's device data for a pairs sort of its shard (values: global input positions).
struct Rank {
  int device = 0;
  std::int64_t n = 0, capacity = 0;
  primlab::DeviceBuffer<std::uint32_t> keys_in, keys_out, values_in, values_out, offsets;
  primlab::DeviceBuffer<unsigned char> ws;
  void* nccl_ws = nullptr;  // the workspace from ncclMemAlloc, where the shard takes that instead
  cudaStream_t stream = nullptr;
  primlab::Shard<std::uint32_t, std::uint32_t> shard;
  ~Rank() {
    if (stream) cudaStreamDestroy(stream);
    if (nccl_ws) ncclMemFree(nccl_ws);
  }
};

void setup(Rank& r, int device, int ranks, const std::vector<std::uint32_t>& keys, std::uint32_t first_id,
           std::int64_t capacity, bool partition, const DistributedOptions& options = {}) {
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
                : primlab::distributed_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(r.n, capacity, ranks, options);
  r.ws = workspace(bytes);
  r.shard = {r.keys_in.get(), r.keys_out.get(), r.n, capacity, {r.ws.get(), bytes}, r.values_in.get(), r.values_out.get(),
             r.offsets.get()};
}

// The host's stable order of `all` (or its stable partition by the low byte): the input positions.
std::vector<std::uint32_t> stable_order(const std::vector<std::uint32_t>& all, bool partition) {
  std::vector<std::uint32_t> idx(all.size());
  std::iota(idx.begin(), idx.end(), 0u);
  auto key = [&](std::uint32_t i) { return partition ? (all[i] & 0xFF) : all[i]; };
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  return idx;
}

// Checks the ranks' concatenated pairs against the host's stable sort (or partition by the low byte).
void expect_global_order(const std::vector<std::uint32_t>& all, std::vector<Rank>& ranks, bool partition) {
  const std::vector<std::uint32_t> idx = stable_order(all, partition);
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

// Communicators for the first G GPUs, driven by this process.
std::vector<ncclComm_t> init_all(int G) {
  std::vector<ncclComm_t> comms(G);
  std::vector<int> devices(G);
  std::iota(devices.begin(), devices.end(), 0);
  EXPECT_EQ(ncclCommInitAll(comms.data(), G, devices.data()), ncclSuccess);
  return comms;
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

// Every way, sort and partition, a few distributions and sizes, on G ranks that one process drives
// through the exchange that `transport` makes for them.
using Transport = std::function<std::unique_ptr<primlab::Exchange>(std::vector<Rank>& ranks)>;
void every_way_on(int G, const Transport& transport) {
  for (bool partition : {false, true})
    for (const DistributedOptions& way : every_way())
      for (Dist d : {Dist::Uniform, Dist::AllEqual, Dist::Zipf})
        for (std::int64_t per_rank : {std::int64_t(0), std::int64_t(1), std::int64_t(100003)}) {
          if (partition && way.scheme == DistributedScheme::SortFirst) continue;
          SCOPED_TRACE(testing::Message() << "G " << G << " " << dist_name(d) << " n/rank " << per_rank
                                          << (partition ? " partition " : " sort ") << way_name(way));
          const auto all = make_keys<std::uint32_t>(d, per_rank * G, 17);
          const std::int64_t cap = primlab::distributed_capacity(std::int64_t(all.size()), G);
          std::vector<Rank> ranks(G);
          for (int g = 0; g < G; ++g)
            setup(ranks[g], g, G, std::vector<std::uint32_t>(all.begin() + g * per_rank, all.begin() + (g + 1) * per_rank),
                  std::uint32_t(g * per_rank), cap, partition, way);
          const std::unique_ptr<primlab::Exchange> ex = transport(ranks);
          ASSERT_NE(ex, nullptr);
          std::vector<primlab::Shard<std::uint32_t, std::uint32_t>> shards;
          for (Rank& r : ranks) shards.push_back(r.shard);
          const Status st = partition ? primlab::distributed_partition_pairs(*ex, shards.data(), 0, 8, nullptr, way)
                                      : primlab::distributed_sort_pairs(*ex, shards.data(), primlab::SortOrder::Ascending,
                                                                        0, 32, nullptr, way);
          ASSERT_EQ(st, Status::Success) << primlab::status_string(st) << " " << ex->last_error();
          for (int g = 0; g < G; ++g) ranks[g].shard.count = shards[g].count;
          expect_global_order(all, ranks, partition);
        }
}

// Every way on 2 and on every GPU over NcclExchange, one process driving the GPUs; `registered`:
// every rank's workspace from ncclMemAlloc, registered with its communicator
// (NcclExchange::register_memory), so that NCCL copies the runs straight between the ranks'
// workspaces; memory registered twice, or deregistered without being registered, is refused.
void every_way_over_nccl(bool registered) {
  for (int G : rank_counts()) {
    std::vector<ncclComm_t> comms = init_all(G);
    every_way_on(G, [&](std::vector<Rank>& ranks) -> std::unique_ptr<primlab::Exchange> {
      std::vector<primlab::NcclRank> nccl_ranks;
      for (std::size_t g = 0; g < ranks.size(); ++g) nccl_ranks.push_back({comms[g], ranks[g].stream});
      std::unique_ptr<primlab::NcclExchange> ex;
      std::string error;
      EXPECT_EQ(primlab::NcclExchange::create(nccl_ranks, ex, &error), Status::Success) << error;
      if (!ex || !registered) return ex;
      for (std::size_t g = 0; g < ranks.size(); ++g) {
        Rank& r = ranks[g];
        EXPECT_EQ(cudaSetDevice(r.device), cudaSuccess);
        const std::size_t bytes = std::max<std::size_t>(r.shard.ws.bytes, 1);
        EXPECT_EQ(ncclMemAlloc(&r.nccl_ws, bytes), ncclSuccess);
        r.shard.ws.ptr = r.nccl_ws;
        EXPECT_EQ(ex->register_memory(int(g), r.nccl_ws, bytes), Status::Success) << ex->last_error();
      }
      EXPECT_EQ(ex->register_memory(0, ranks[0].nccl_ws, 1), Status::InvalidArgument);
      EXPECT_EQ(ex->deregister_memory(0, ranks[0].keys_in.get()), Status::InvalidArgument);
      return ex;  // which deregisters the workspaces before the ranks free them
    });
    for (ncclComm_t c : comms) ncclCommDestroy(c);
  }
}

TEST(NcclDistributed, OneProcessDrivesTheGpus) { every_way_over_nccl(false); }
TEST(NcclDistributed, RegisteredWorkspacesSortAndPartition) { every_way_over_nccl(true); }

// The workspaces an NcclExchange keeps (kept_workspace: ncclMemAlloc, registered), which a
// caller that takes one per call (primlab.distributed) uses: a larger call grows each, a smaller
// one reuses it, release_kept_workspaces gives them back; every sort is the host's order. The
// other transports keep none.
TEST(NcclDistributed, KeptWorkspacesGrowAndAreGivenBack) {
  const int G = 2;
  if (gpu_count() < G) GTEST_SKIP() << "needs two GPUs";
  std::vector<ncclComm_t> comms = init_all(G);
  std::vector<cudaStream_t> streams(G);
  for (int g = 0; g < G; ++g) {
    ASSERT_EQ(cudaSetDevice(g), cudaSuccess);
    ASSERT_EQ(cudaStreamCreate(&streams[g]), cudaSuccess);
  }
  {
    std::unique_ptr<primlab::NcclExchange> ex;
    std::string error;
    ASSERT_EQ(primlab::NcclExchange::create({{comms[0], streams[0]}, {comms[1], streams[1]}}, ex, &error), Status::Success)
        << error;
    primlab::Workspace none{};
    EXPECT_EQ(ex->kept_workspace(G, 1, &none), Status::InvalidArgument);
    std::vector<void*> kept_at(G, nullptr);
    for (std::int64_t per_rank : {std::int64_t(100003), std::int64_t(400009), std::int64_t(5000), std::int64_t(0),
                                  std::int64_t(200003)}) {
      SCOPED_TRACE(testing::Message() << "n/rank " << per_rank);
      if (per_rank == 0) {  // stands for the release between the calls
        EXPECT_EQ(ex->release_kept_workspaces(), Status::Success);
        continue;
      }
      const auto all = make_keys<std::uint32_t>(Dist::Uniform, per_rank * G, std::uint32_t(per_rank));
      const std::int64_t cap = primlab::distributed_capacity(std::int64_t(all.size()), G);
      std::vector<Rank> ranks(G);
      std::vector<primlab::Shard<std::uint32_t, std::uint32_t>> shards;
      for (int g = 0; g < G; ++g) {
        setup(ranks[g], g, G, std::vector<std::uint32_t>(all.begin() + g * per_rank, all.begin() + (g + 1) * per_rank),
              std::uint32_t(g * per_rank), cap, false);
        primlab::Workspace kept{};
        ASSERT_EQ(ex->kept_workspace(g, ranks[g].shard.ws.bytes, &kept), Status::Success) << ex->last_error();
        EXPECT_GE(kept.bytes, ranks[g].shard.ws.bytes);
        if (per_rank == 5000) EXPECT_EQ(kept.ptr, kept_at[g]) << "a smaller call reuses the kept workspace";
        kept_at[g] = kept.ptr;
        ranks[g].shard.ws.ptr = kept.ptr;
        shards.push_back(ranks[g].shard);
      }
      const Status st = primlab::distributed_sort_pairs(*ex, shards.data(), primlab::SortOrder::Ascending, 0, 32);
      ASSERT_EQ(st, Status::Success) << ex->last_error();
      for (int g = 0; g < G; ++g) ranks[g].shard.count = shards[g].count;
      expect_global_order(all, ranks, false);
    }
  }
  for (int g = 0; g < G; ++g) {
    cudaStreamDestroy(streams[g]);
    ncclCommDestroy(comms[g]);
  }
  std::vector<primlab::PeerRank> peer_ranks = {{0, nullptr}, {1, nullptr}};
  std::unique_ptr<primlab::PeerExchange> peer;
  ASSERT_EQ(primlab::PeerExchange::create(peer_ranks, peer), Status::Success);
  primlab::Workspace w{};
  EXPECT_EQ(peer->kept_workspace(0, 1024, &w), Status::Unsupported);
  primlab::LoopbackExchange loopback(2, nullptr);
  EXPECT_EQ(loopback.kept_workspace(0, 1024, &w), Status::Unsupported);
}

// The same over CUDA peer copies (PeerExchange), GPU to GPU.
TEST(PeerDistributed, OneProcessDrivesTheGpus) {
  for (int G : rank_counts())
    every_way_on(G, [&](std::vector<Rank>& ranks) -> std::unique_ptr<primlab::Exchange> {
      std::vector<primlab::PeerRank> peer_ranks;
      for (const Rank& r : ranks) peer_ranks.push_back({r.device, r.stream});
      std::unique_ptr<primlab::PeerExchange> ex;
      std::string error;
      EXPECT_EQ(primlab::PeerExchange::create(peer_ranks, ex, &error), Status::Success) << error;
      return ex;
    });
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
}

// [SECTION] one process per GPU

// The unique id through a file: rank 0 writes it (whole, then renamed into place), the others
// wait for it.
bool share_id(int rank, const std::string& path, ncclUniqueId& id) {
  if (rank == 0) {
    if (ncclGetUniqueId(&id) != ncclSuccess) return false;
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(id.internal, sizeof(id.internal));
    return std::rename(tmp.c_str(), path.c_str()) == 0;
  }
  for (int i = 0; i < 6000; ++i) {
    std::ifstream f(path, std::ios::binary);
    if (f && f.read(id.internal, sizeof(id.internal))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// One rank of OneProcessPerGpu: sorts its shard every way and checks its part of the global
// order (its place in it from the ranks' gathered counts).
void run_as_rank(int rank, int G, const std::string& id_file) {
  ASSERT_EQ(cudaSetDevice(rank), cudaSuccess);
  ncclUniqueId id;
  ASSERT_TRUE(share_id(rank, id_file, id)) << "no unique id in " << id_file;
  ncclComm_t comm;
  ASSERT_EQ(ncclCommInitRank(&comm, G, id, rank), ncclSuccess);
  const std::int64_t per_rank = 300007;
  for (const DistributedOptions& way : every_way())
    for (Dist d : {Dist::Uniform, Dist::Zipf}) {
      SCOPED_TRACE(testing::Message() << "rank " << rank << " of " << G << " " << dist_name(d) << " " << way_name(way));
      const auto all = make_keys<std::uint32_t>(d, per_rank * G, 29);
      const std::int64_t cap = primlab::distributed_capacity(std::int64_t(all.size()), G);
      Rank r;
      setup(r, rank, G, std::vector<std::uint32_t>(all.begin() + rank * per_rank, all.begin() + (rank + 1) * per_rank),
            std::uint32_t(rank * per_rank), cap, false, way);
      std::unique_ptr<primlab::NcclExchange> ex;
      std::string error;
      ASSERT_EQ(primlab::NcclExchange::create({{comm, r.stream}}, ex, &error), Status::Success) << error;
      const Status st = primlab::distributed_sort_pairs(*ex, &r.shard, primlab::SortOrder::Ascending, 0, 32, nullptr, way);
      ASSERT_EQ(st, Status::Success) << primlab::status_string(st) << " " << ex->last_error();
      std::vector<std::int64_t> counts(G);
      ASSERT_EQ(ex->all_gather(&r.shard.count, 1, counts.data()), Status::Success);
      const std::int64_t first = std::accumulate(counts.begin(), counts.begin() + rank, std::int64_t(0));
      const std::vector<std::uint32_t> idx = stable_order(all, false);
      ASSERT_EQ(cudaStreamSynchronize(r.stream), cudaSuccess);
      EXPECT_EQ(to_host(r.values_out, std::size_t(r.shard.count)),
                std::vector<std::uint32_t>(idx.begin() + first, idx.begin() + first + r.shard.count));
    }
  ncclCommDestroy(comm);
}

// Starts this test once per rank as a process of its own, and waits for all (2 minutes at most).
void run_ranks(int G) {
  const std::string id_file = "/tmp/primlab-nccl-id-" + std::to_string(getpid()) + "-" + std::to_string(G);
  std::remove(id_file.c_str());
  std::vector<pid_t> pids;
  for (int rank = 0; rank < G; ++rank) {
    std::vector<std::string> env = {"PRIMLAB_TEST_RANK=" + std::to_string(rank), "PRIMLAB_TEST_RANKS=" + std::to_string(G),
                                    "PRIMLAB_TEST_ID_FILE=" + id_file};
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    for (char** e = environ; *e; ++e) envp.push_back(*e);
    envp.push_back(nullptr);
    std::string exe = "/proc/self/exe", filter = "--gtest_filter=NcclDistributed.OneProcessPerGpu";
    char* argv[] = {exe.data(), filter.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()), 0);
    pids.push_back(pid);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  for (int rank = 0; rank < G; ++rank) {
    int status = 0;
    pid_t done = 0;
    while ((done = waitpid(pids[rank], &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (done == 0) {
      for (pid_t p : pids) kill(p, SIGKILL);
      FAIL() << "rank " << rank << " of " << G << " did not finish in 2 minutes";
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "rank " << rank << " of " << G << " failed";
  }
  std::remove(id_file.c_str());
}

TEST(NcclDistributed, OneProcessPerGpu) {
  if (const char* rank = std::getenv("PRIMLAB_TEST_RANK")) {
    run_as_rank(std::atoi(rank), std::atoi(std::getenv("PRIMLAB_TEST_RANKS")), std::getenv("PRIMLAB_TEST_ID_FILE"));
    return;
  }
  for (int G : rank_counts()) {
    SCOPED_TRACE(testing::Message() << G << " processes");
    run_ranks(G);
  }
}

// [SECTION] an NCCL failure mid-pipeline

// An NcclExchange whose fail_at-th transfer NCCL refuses: it asks NCCL for a send to a rank
// outside the group, which NCCL answers with ncclInvalidArgument and its own message, after the
// call's earlier transfers have gone on NCCL's stream.
class RefusedExchange final : public primlab::Exchange {
 public:
  RefusedExchange(primlab::NcclExchange& inner, std::vector<ncclComm_t> comms, int fail_at)
      : inner_(inner), comms_(std::move(comms)), fail_at_(fail_at) {}
  int size() const override { return inner_.size(); }
  int local_count() const override { return inner_.local_count(); }
  int rank(int local) const override { return inner_.rank(local); }
  int device(int local) const override { return inner_.device(local); }
  cudaStream_t stream(int local) const override { return inner_.stream(local); }
  Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override {
    return inner_.all_gather(h_local, count, h_all);
  }
  std::size_t max_gather_count() const override { return inner_.max_gather_count(); }
  Status all_to_all_v(const primlab::ExchangePlan* plans, int parts, int* ticket) override {
    if (transfers_++ != fail_at_) return inner_.all_to_all_v(plans, parts, ticket);
    ncclResult_t r = ncclGroupStart();
    if (r == ncclSuccess) r = ncclSend(nullptr, 1, ncclChar, size(), comms_[0], stream(0));
    const ncclResult_t end = ncclGroupEnd();
    if (r == ncclSuccess) r = end;
    error_ = std::string(ncclGetErrorString(r)) + ": " + ncclGetLastError(comms_[0]);
    return r == ncclSuccess ? Status::Success : Status::CommError;
  }
  Status join(int local, int ticket) override { return inner_.join(local, ticket); }
  std::string last_error() const override { return error_.empty() ? inner_.last_error() : error_; }

 private:
  primlab::NcclExchange& inner_;
  std::vector<ncclComm_t> comms_;
  int fail_at_, transfers_ = 0;
  std::string error_;
};

TEST(NcclDistributed, AnNcclFailureMidPipelineIsCommError) {
  const int G = rank_counts().back();
  std::vector<ncclComm_t> comms = init_all(G);
  for (const DistributedOptions& way : {DistributedOptions{DistributedScheme::PartitionFirst, 4},
                                        DistributedOptions{DistributedScheme::SortFirst, 4}}) {
    SCOPED_TRACE(way_name(way));
    const std::int64_t per_rank = 200003;
    const auto all = make_keys<std::uint32_t>(Dist::Uniform, per_rank * G, 31);
    const std::int64_t cap = primlab::distributed_capacity(std::int64_t(all.size()), G);
    std::vector<Rank> ranks(G);
    std::vector<primlab::NcclRank> nccl_ranks;
    for (int g = 0; g < G; ++g) {
      setup(ranks[g], g, G, std::vector<std::uint32_t>(all.begin() + g * per_rank, all.begin() + (g + 1) * per_rank),
            std::uint32_t(g * per_rank), cap, false, way);
      nccl_ranks.push_back({comms[g], ranks[g].stream});
    }
    std::unique_ptr<primlab::NcclExchange> ex;
    std::string error;
    ASSERT_EQ(primlab::NcclExchange::create(nccl_ranks, ex, &error), Status::Success) << error;
    std::vector<primlab::Shard<std::uint32_t, std::uint32_t>> shards;
    for (Rank& r : ranks) shards.push_back(r.shard);
    RefusedExchange refused(*ex, comms, 1);  // the second transfer: one has gone
    const Status st = primlab::distributed_sort_pairs(refused, shards.data(), primlab::SortOrder::Ascending, 0, 32, nullptr, way);
    EXPECT_EQ(st, Status::CommError);
    EXPECT_NE(refused.last_error().find("invalid"), std::string::npos) << refused.last_error();
    for (int g = 0; g < G; ++g) {
      ASSERT_EQ(cudaSetDevice(g), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(to_host(ranks[g].keys_in, std::size_t(per_rank)),
                std::vector<std::uint32_t>(all.begin() + g * per_rank, all.begin() + (g + 1) * per_rank))
          << "rank " << g << "'s keys are intact";
    }
    // The communicators still work: the same call through the exchange itself sorts.
    ASSERT_EQ(primlab::distributed_sort_pairs(*ex, shards.data(), primlab::SortOrder::Ascending, 0, 32, nullptr, way),
              Status::Success)
        << ex->last_error();
    for (int g = 0; g < G; ++g) ranks[g].shard.count = shards[g].count;
    expect_global_order(all, ranks, false);
  }
  for (ncclComm_t c : comms) ncclCommDestroy(c);
}

}  // namespace
