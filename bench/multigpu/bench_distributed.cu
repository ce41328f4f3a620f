// bench-multigpu: the multi-GPU sort over NCCL, one process driving the first G GPUs
// (ncclCommInitAll), or one process per GPU (each started with --rank, the communicator from the
// unique id rank 0 writes to --id-file); or, one process driving the GPUs, over CUDA peer copies
// (--transport peer: PeerExchange). For each size (keys per GPU), keys or u32 pairs, key
// distribution and way of running it (scheme, pieces and their growth): the time, the aggregate rate, each
// step's time, the balance, the exchange's rate against NCCL's own all-to-all of the same bytes
// (in one group, and in the call's own groups), whether the result is sorted and holds the input's
// pairs, and the speed-up over primlab's sort of the same total on one GPU, measured in the same
// run. Beside them, for the cost model (bench/distributed_cost_model.py): the device copy
// bandwidth, one GPU's sort and radix partition of a shard, and NCCL's all-to-all of a shard.
//   bench-multigpu [--gpus G] [--log2 26,28,30] [--kinds keys,pairs] [--dists uniform,skewed,all-equal]
//                  [--ways sort-first:1,partition-first:4:2] [--reps 5] [--no-single] [--json FILE]
//                  [--commit SHA] [--transport nccl|peer] [--register] [--rank R --ranks G --id-file FILE]
// --register: the workspaces (and NCCL's own all-to-all's buffers) from ncclMemAlloc, registered
// with the communicators (NcclExchange::register_memory).
// The JSON is rewritten after every case, so that a run cut short keeps what it measured.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "primlab/device_buffer.h"
#include "primlab/distributed.h"
#include "primlab/exchange_nccl.h"
#include "primlab/radix_partition.h"
#include "primlab/radix_sort.h"
#include "primlab/version.h"
#include <cub/version.cuh>

namespace {

using Clock = std::chrono::steady_clock;
using primlab::DistributedOptions;
using primlab::DistributedScheme;

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "bench-multigpu: %s\n", why.c_str());
  std::exit(2);
}
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) die(std::string(what) + ": " + ncclGetErrorString(r));
}
void check(primlab::Status s, const char* what, const primlab::Exchange* ex = nullptr) {
  if (s != primlab::Status::Success)
    die(std::string(what) + ": " + primlab::status_string(s) + (ex ? " " + ex->last_error() : std::string()));
}

// [SECTION] inputs

enum class Dist { Uniform, Skewed, AllEqual };
const char* dist_name(Dist d) { return d == Dist::Uniform ? "uniform" : d == Dist::Skewed ? "skewed" : "all-equal"; }

__device__ std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
  return x;
}
// Uniform: a hash of the position. Skewed: 70 % of the keys share the top byte 0x42 (their other
// bits uniform), the rest are uniform: every cut falls inside that one bucket, so the splitters
// refine with the next digit. All-equal: one value, so every cut is inside one run of equal keys.
__global__ void fill_keys(std::uint32_t* keys, std::int64_t n, std::uint32_t seed, Dist d) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t x = mix(std::uint32_t(i) * 0x9E3779B1u ^ seed ^ std::uint32_t(i >> 32) * 0x85EBCA77u);
    if (d == Dist::Uniform) keys[i] = x;
    else if (d == Dist::Skewed) keys[i] = mix(x * 0x85EBCA77u + 0x165667B1u) % 10 < 7 ? (0x42000000u | (x & 0xFFFFFFu)) : x;
    else keys[i] = 0x5A5A5A5Au;
  }
}
__global__ void fill_iota(std::uint32_t* v, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    v[i] = std::uint32_t(i);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// [SECTION] the ranks this process drives

// The bytes each driven rank sends to and receives from each rank in one transfer
// ([local * G + peer]).
struct Traffic {
  std::vector<std::size_t> sent, received;
};

// Records the bytes of every transfer the primitive makes, so that NCCL's own send/recv of the same
// bytes can be timed beside it.
class RecordingExchange final : public primlab::Exchange {
 public:
  explicit RecordingExchange(primlab::Exchange& inner) : inner_(inner) {}
  void clear() { transfers_.clear(); }
  const std::vector<Traffic>& transfers() const { return transfers_; }
  // Every transfer's bytes, summed: one all-to-all.
  Traffic total() const {
    Traffic t{std::vector<std::size_t>(std::size_t(local_count()) * size(), 0), {}};
    t.received = t.sent;
    for (const Traffic& x : transfers_)
      for (std::size_t i = 0; i < t.sent.size(); ++i) {
        t.sent[i] += x.sent[i];
        t.received[i] += x.received[i];
      }
    return t;
  }

  int size() const override { return inner_.size(); }
  int local_count() const override { return inner_.local_count(); }
  int rank(int local) const override { return inner_.rank(local); }
  int device(int local) const override { return inner_.device(local); }
  cudaStream_t stream(int local) const override { return inner_.stream(local); }
  primlab::Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override {
    return inner_.all_gather(h_local, count, h_all);
  }
  std::size_t max_gather_count() const override { return inner_.max_gather_count(); }
  primlab::Status all_to_all_v(const primlab::ExchangePlan* plans, int parts, int* ticket) override {
    Traffic t{std::vector<std::size_t>(std::size_t(local_count()) * size(), 0), {}};
    t.received = t.sent;
    for (int l = 0; l < local_count(); ++l)
      for (int p = 0; p < parts; ++p)
        for (int s = 0; s < size(); ++s) {
          t.sent[std::size_t(l) * size() + s] += plans[l * parts + p].send_bytes[s];
          t.received[std::size_t(l) * size() + s] += plans[l * parts + p].recv_bytes[s];
        }
    transfers_.push_back(std::move(t));
    return inner_.all_to_all_v(plans, parts, ticket);
  }
  primlab::Status join(int local, int ticket) override { return inner_.join(local, ticket); }
  std::string last_error() const override { return inner_.last_error(); }

 private:
  primlab::Exchange& inner_;
  std::vector<Traffic> transfers_;
};

struct Gpu {
  int device = 0, rank = 0;
  cudaStream_t stream = nullptr;
  ncclComm_t comm = nullptr;
};

// The GPUs this process drives, their exchange, and the group's clock: a rep starts when every
// rank is ready and lasts until the slowest rank is done.
struct Group {
  std::vector<Gpu> gpus;
  int size = 0;        // ranks in the group
  bool one_process = true;
  std::unique_ptr<primlab::Exchange> transport;  // the calls' (NCCL's all-to-all is timed beside it)
  std::unique_ptr<RecordingExchange> ex;
  primlab::NcclExchange* registers = nullptr;    // --register: the exchange the workspaces register with

  bool leader() const { return gpus.front().rank == 0; }
  void sync() const {
    for (const Gpu& g : gpus) {
      check(cudaSetDevice(g.device), "cudaSetDevice");
      check(cudaStreamSynchronize(g.stream), "cudaStreamSynchronize");
    }
  }
  // The largest of every rank's value (every process's, one process per GPU).
  double max_over_ranks(double v) const {
    if (one_process) return v;
    std::int64_t mine = std::int64_t(v * 1e6);
    std::vector<std::int64_t> all(static_cast<std::size_t>(size));
    check(ex->all_gather(&mine, 1, all.data()), "all_gather", ex.get());
    return double(*std::max_element(all.begin(), all.end())) / 1e6;
  }
  void barrier() const { max_over_ranks(0); }
  // The sum of every process's value (one process: its own).
  std::uint64_t sum_over_ranks(std::uint64_t v) const {
    if (one_process) return v;
    std::int64_t mine = std::int64_t(v);
    std::vector<std::int64_t> all(static_cast<std::size_t>(size));
    check(ex->all_gather(&mine, 1, all.data()), "all_gather", ex.get());
    std::uint64_t sum = 0;
    for (std::int64_t x : all) sum += std::uint64_t(x);
    return sum;
  }
  // Median wall time of `reps` runs of f (after one warm-up), every GPU synchronised around each.
  double time_ms(int reps, const std::function<void()>& f) const {
    f();
    sync();
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) {
      barrier();
      const auto t0 = Clock::now();
      f();
      sync();
      ms.push_back(max_over_ranks(std::chrono::duration<double, std::milli>(Clock::now() - t0).count()));
    }
    return median(ms);
  }
};

// Device memory of driven rank `local` that the transfers use: from cudaMalloc, or with
// --register from ncclMemAlloc and registered with the exchange's communicator (as NCCL's own
// all-to-all beside it is), so that NCCL copies it straight to the peer's.
class TransferMemory {
 public:
  TransferMemory(const Group& grp, int local, std::size_t bytes) : reg_(grp.registers), local_(local) {
    bytes = std::max<std::size_t>(bytes, 1);
    check(cudaSetDevice(grp.gpus[std::size_t(local)].device), "cudaSetDevice");
    if (!reg_) {
      check(cudaMalloc(&p_, bytes), "cudaMalloc");
      return;
    }
    check(ncclMemAlloc(&p_, bytes), "ncclMemAlloc");
    check(reg_->register_memory(local, p_, bytes), "register_memory", reg_);
  }
  ~TransferMemory() {
    if (!p_) return;
    if (reg_) {
      reg_->deregister_memory(local_, p_);
      ncclMemFree(p_);
    } else {
      cudaFree(p_);
    }
  }
  TransferMemory(const TransferMemory&) = delete;
  TransferMemory& operator=(const TransferMemory&) = delete;
  unsigned char* get() const { return static_cast<unsigned char*>(p_); }

 private:
  primlab::NcclExchange* reg_;
  int local_;
  void* p_ = nullptr;
};

// [SECTION] references: copy, one GPU, NCCL's all-to-all

// Device-to-device copy of `bytes` on the first GPU: bytes read plus written per second.
double copy_gb_per_s(const Group& grp, std::size_t bytes, int reps) {
  const Gpu& g = grp.gpus.front();
  check(cudaSetDevice(g.device), "cudaSetDevice");
  primlab::DeviceBuffer<char> a(bytes), b(bytes);
  check(cudaMemsetAsync(a.get(), 1, bytes, g.stream), "cudaMemset");
  std::vector<double> ms;
  for (int i = 0; i <= reps; ++i) {
    const auto t0 = Clock::now();
    check(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, g.stream), "cudaMemcpy");
    check(cudaStreamSynchronize(g.stream), "sync");
    if (i > 0) ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return 2.0 * double(bytes) / median(ms) / 1e6;
}

bool fits(const Gpu& g, std::size_t bytes) {
  check(cudaSetDevice(g.device), "cudaSetDevice");
  std::size_t free_bytes = 0, all = 0;
  check(cudaMemGetInfo(&free_bytes, &all), "cudaMemGetInfo");
  return bytes < free_bytes / 100 * 92;
}

// primlab's sort (or radix partition by the top 8 bits) of n keys (and values) on the first GPU;
// < 0 where it does not fit.
double one_gpu_ms(const Group& grp, std::int64_t n, bool pairs, Dist d, bool partition, int reps) {
  if (n > (std::int64_t(1) << 31) - 1) return -1;
  const Gpu& g = grp.gpus.front();
  const std::size_t ws_bytes =
      partition ? (pairs ? primlab::radix_partition_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, 8)
                         : primlab::radix_partition_keys_workspace_bytes<std::uint32_t>(n, 8))
                : (pairs ? primlab::radix_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n)
                         : primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(n));
  if (!fits(g, std::size_t(n) * 4 * (pairs ? 4 : 2) + ws_bytes)) return -1;
  primlab::DeviceBuffer<std::uint32_t> in(n), out(n), vin(pairs ? n : 1), vout(pairs ? n : 1), offsets(257);
  primlab::DeviceBuffer<unsigned char> ws(std::max<std::size_t>(ws_bytes, 1));
  fill_keys<<<1024, 256, 0, g.stream>>>(in.get(), n, 7, d);
  if (pairs) fill_iota<<<1024, 256, 0, g.stream>>>(vin.get(), n);
  const primlab::Workspace w{ws.get(), ws_bytes};
  Group one;
  one.gpus = {g};
  return one.time_ms(reps, [&] {
    using primlab::SortOrder;
    if (partition)
      check(pairs ? primlab::radix_partition_pairs(in.get(), out.get(), vin.get(), vout.get(), offsets.get(), n, 24, 8, w, g.stream)
                  : primlab::radix_partition_keys(in.get(), out.get(), offsets.get(), n, 24, 8, w, g.stream),
            "one-GPU partition");
    else
      check(pairs ? primlab::radix_sort_pairs(in.get(), out.get(), vin.get(), vout.get(), n, SortOrder::Ascending, 0, 32, w, g.stream)
                  : primlab::radix_sort_keys(in.get(), out.get(), n, SortOrder::Ascending, 0, 32, w, g.stream),
            "one-GPU sort");
  });
}

// NCCL's own grouped send/recv of the same bytes: one group per transfer, back to back and waited
// for at the end (as the call's transfers are when its steps are timed), every message from and to
// a 256-byte boundary (plus `offset` bytes). The time of the whole sequence.
double nccl_ms(const Group& grp, const std::vector<Traffic>& transfers, int reps, std::size_t offset = 0) {
  const int L = int(grp.gpus.size()), G = grp.size;
  auto round = [](std::size_t b) { return (b + 511) / 256 * 256; };
  std::vector<std::unique_ptr<TransferMemory>> sbuf, rbuf;
  for (int l = 0; l < L; ++l) {
    std::size_t s_most = 0, r_most = 0;  // the largest transfer's bytes
    for (const Traffic& t : transfers) {
      std::size_t s_total = 0, r_total = 0;
      for (int p = 0; p < G; ++p) {
        s_total += round(t.sent[std::size_t(l) * G + p]);
        r_total += round(t.received[std::size_t(l) * G + p]);
      }
      s_most = std::max(s_most, s_total);
      r_most = std::max(r_most, r_total);
    }
    sbuf.push_back(std::make_unique<TransferMemory>(grp, l, s_most));
    rbuf.push_back(std::make_unique<TransferMemory>(grp, l, r_most));
  }
  return grp.time_ms(reps, [&] {
    for (const Traffic& t : transfers) {
      check(ncclGroupStart(), "ncclGroupStart");
      for (int l = 0; l < L; ++l) {
        std::size_t s_at = offset, r_at = offset;
        for (int p = 0; p < G; ++p) {
          const std::size_t send = t.sent[std::size_t(l) * G + p], recv = t.received[std::size_t(l) * G + p];
          if (send > 0)
            check(ncclSend(sbuf[l]->get() + s_at, send, ncclChar, p, grp.gpus[l].comm, grp.gpus[l].stream), "ncclSend");
          if (recv > 0)
            check(ncclRecv(rbuf[l]->get() + r_at, recv, ncclChar, p, grp.gpus[l].comm, grp.gpus[l].stream), "ncclRecv");
          s_at += round(send);
          r_at += round(recv);
        }
      }
      check(ncclGroupEnd(), "ncclGroupEnd");
    }
    grp.sync();
  });
}

// [SECTION] checking a result

__device__ unsigned long long pair_hash(std::uint32_t key, std::uint32_t value) {
  return (unsigned long long)(mix(key ^ 0x5bd1e995u) ^ (std::uint64_t(mix(value + 0x27d4eb2fu)) << 32)) *
         0x9E3779B97F4A7C15ull;
}
// out[0] += keys of the first n - 1 greater than the next one; out[1] += the hash of every
// (key, value) pair (value 0 for keys alone), so that a result holds the input's pairs when the
// sums over the ranks agree.
__global__ void order_and_hash(const std::uint32_t* keys, const std::uint32_t* values, std::int64_t n,
                               unsigned long long* out) {
  unsigned long long disorder = 0, hash = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    if (i + 1 < n && keys[i] > keys[i + 1]) ++disorder;
    hash += pair_hash(keys[i], values ? values[i] : 0u);
  }
  for (int o = 16; o > 0; o /= 2) {
    disorder += __shfl_down_sync(0xffffffffu, disorder, o);
    hash += __shfl_down_sync(0xffffffffu, hash, o);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out[0], disorder);
    atomicAdd(&out[1], hash);
  }
}

// The disorder and the pair hash of n keys (and values) on the current device.
std::pair<std::uint64_t, std::uint64_t> order_and_hash_of(const std::uint32_t* keys, const std::uint32_t* values,
                                                          std::int64_t n, cudaStream_t stream) {
  primlab::DeviceBuffer<unsigned long long> d(2);
  check(cudaMemsetAsync(d.get(), 0, 2 * sizeof(unsigned long long), stream), "cudaMemset");
  if (n > 0) order_and_hash<<<1024, 256, 0, stream>>>(keys, values, n, d.get());
  check(cudaGetLastError(), "order_and_hash");
  unsigned long long h[2];
  check(cudaMemcpyAsync(h, d.get(), sizeof h, cudaMemcpyDeviceToHost, stream), "cudaMemcpy");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return {h[0], h[1]};
}

// [SECTION] one case

struct Way {
  DistributedScheme scheme;
  int pieces;
  double growth;  // 0: the tuned one
};
std::string way_name(const Way& w) {
  std::string name = std::string(w.scheme == DistributedScheme::SortFirst ? "sort-first"
                                 : w.scheme == DistributedScheme::PartitionFirst ? "partition-first"
                                                                                  : "auto") +
                     ":" + std::to_string(w.pieces);
  if (w.growth > 0) {
    char g[32];
    std::snprintf(g, sizeof g, ":%g", w.growth);
    name += g;
  }
  return name;
}
const char* scheme_name(DistributedScheme s) {
  return s == DistributedScheme::SortFirst ? "sort-first" : s == DistributedScheme::PartitionFirst ? "partition-first" : "auto";
}

// A call that returned an error: every rank returns the same one, so the case is recorded as
// failed and the run goes on with the next.
struct CaseFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Case {
  int log2n;
  bool pairs;
  Dist dist;
  Way way;
};

nlohmann::json run_case(Group& grp, const Case& k, int reps, const std::map<std::tuple<std::int64_t, bool, int>, double>& one_gpu) {
  const int L = int(grp.gpus.size()), G = grp.size;
  const std::int64_t n = std::int64_t(1) << k.log2n, total = n * G;
  const std::int64_t cap = primlab::distributed_capacity(total, G);
  const std::size_t elem = k.pairs ? 8 : 4;
  const DistributedOptions options{k.way.scheme, k.way.pieces, k.way.growth};
  nlohmann::json j = {{"keys_per_gpu_log2", k.log2n}, {"pairs", k.pairs}, {"keys", dist_name(k.dist)},
                      {"way", way_name(k.way)}, {"total_keys", total}};
  const std::size_t ws_bytes = k.pairs ? primlab::distributed_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, cap, G, options)
                                       : primlab::distributed_sort_keys_workspace_bytes<std::uint32_t>(n, cap, G, options);
  const std::size_t need = std::size_t(n + cap) * elem + ws_bytes;
  bool room = true;
  for (const Gpu& g : grp.gpus) room = room && fits(g, need);
  if (grp.max_over_ranks(room ? 0 : 1) > 0) {
    j["skipped"] = "needs " + std::to_string(need >> 30) + " GiB per GPU";
    return j;
  }
  std::vector<primlab::DeviceBuffer<std::uint32_t>> keys_in, keys_out, values_in, values_out;
  std::vector<std::unique_ptr<TransferMemory>> ws;
  std::vector<primlab::Shard<std::uint32_t, std::uint32_t>> shards(L);
  for (int l = 0; l < L; ++l) {
    const Gpu& g = grp.gpus[l];
    check(cudaSetDevice(g.device), "cudaSetDevice");
    keys_in.emplace_back(n);
    keys_out.emplace_back(cap);
    values_in.emplace_back(k.pairs ? n : 1);
    values_out.emplace_back(k.pairs ? cap : 1);
    ws.push_back(std::make_unique<TransferMemory>(grp, l, ws_bytes));
    fill_keys<<<1024, 256, 0, g.stream>>>(keys_in[l].get(), n, 1234567u * (g.rank + 1), k.dist);
    if (k.pairs) fill_iota<<<1024, 256, 0, g.stream>>>(values_in[l].get(), n);
    shards[l] = {keys_in[l].get(), keys_out[l].get(), n, cap, {ws[l]->get(), ws_bytes},
                 k.pairs ? values_in[l].get() : nullptr, k.pairs ? values_out[l].get() : nullptr};
  }
  // The input's pair hash, summed over the ranks, which the result's must equal.
  std::uint64_t in_hash = 0;
  for (int l = 0; l < L; ++l) {
    check(cudaSetDevice(grp.gpus[l].device), "cudaSetDevice");
    in_hash += order_and_hash_of(keys_in[l].get(), k.pairs ? values_in[l].get() : nullptr, n, grp.gpus[l].stream).second;
  }
  auto sort = [&](primlab::DistributedTimes* t) {
    const primlab::Status st =
        k.pairs ? primlab::distributed_sort_pairs(*grp.ex, shards.data(), primlab::SortOrder::Ascending, 0, 32, t, options)
                : primlab::distributed_sort_keys(*grp.ex, shards.data(), primlab::SortOrder::Ascending, 0, 32, t, options);
    if (st != primlab::Status::Success) throw CaseFailed(primlab::status_string(st) + std::string(" ") + grp.ex->last_error());
  };
  const double total_ms = grp.time_ms(reps, [&] { sort(nullptr); });
  // The steps, each waited for: a separate set of runs (the last one's transfers recorded).
  std::vector<primlab::DistributedTimes> phases(reps);
  for (auto& p : phases) {
    grp.barrier();
    grp.ex->clear();
    sort(&p);
  }
  auto med = [&](double primlab::DistributedTimes::*f) {
    std::vector<double> v;
    for (const auto& p : phases) v.push_back(grp.max_over_ranks(p.*f));
    return median(v);
  };
  const primlab::DistributedTimes& t = phases.back();
  const double splitters = med(&primlab::DistributedTimes::splitters), partition = med(&primlab::DistributedTimes::partition),
               exchange = med(&primlab::DistributedTimes::exchange), local = med(&primlab::DistributedTimes::local),
               agree = med(&primlab::DistributedTimes::agree);
  // The last run's result: every rank's keys in order, in order across the ranks, and the input's
  // pairs (a hash summed over the ranks). Per rank: disorder, hash, first key, last key, count.
  std::vector<std::int64_t> mine(std::size_t(L) * 5), all(std::size_t(G) * 5);
  for (int l = 0; l < L; ++l) {
    check(cudaSetDevice(grp.gpus[l].device), "cudaSetDevice");
    const std::int64_t count = shards[l].count;
    const auto [disorder, hash] = order_and_hash_of(keys_out[l].get(), k.pairs ? values_out[l].get() : nullptr, count,
                                                    grp.gpus[l].stream);
    std::uint32_t ends[2] = {0, 0};
    if (count > 0) {
      check(cudaMemcpy(&ends[0], keys_out[l].get(), 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
      check(cudaMemcpy(&ends[1], keys_out[l].get() + count - 1, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    }
    std::int64_t* m = &mine[std::size_t(l) * 5];
    m[0] = std::int64_t(disorder);
    m[1] = std::int64_t(hash);
    m[2] = ends[0];
    m[3] = ends[1];
    m[4] = count;
  }
  check(grp.ex->all_gather(mine.data(), 5, all.data()), "all_gather", grp.ex.get());
  std::uint64_t out_hash = 0;
  std::int64_t out_count = 0, last = -1;
  bool verified = true;
  for (int r = 0; r < G; ++r) {
    const std::int64_t* a = &all[std::size_t(r) * 5];
    verified = verified && a[0] == 0 && (a[4] == 0 || a[2] >= last);
    if (a[4] > 0) last = a[3];
    out_hash += std::uint64_t(a[1]);
    out_count += a[4];
  }
  verified = verified && out_count == total && out_hash == grp.sum_over_ranks(in_hash);
  // Free the case's buffers before NCCL's send/recv of the same bytes takes its own.
  keys_in.clear(); keys_out.clear(); values_in.clear(); values_out.clear(); ws.clear();
  const RecordingExchange& rec = *grp.ex;
  const double moved_per_gpu = double(t.moved) * double(elem) / G;
  // NCCL moving the same bytes in one group, and in the call's own transfers (where nothing moves
  // there is nothing to compare: the exchange is then the empty transfers' fixed cost).
  const bool moves = t.moved > 0;
  const double same_bytes_ms = moves ? nccl_ms(grp, {rec.total()}, reps) : 0;
  const double same_transfers_ms = moves ? nccl_ms(grp, rec.transfers(), reps) : 0;
  const auto single = one_gpu.find({total, k.pairs, int(k.dist)});
  const double single_ms = single == one_gpu.end() ? -1 : single->second;
  auto ratio = [&](double nccl) { return moves ? nlohmann::json(nccl / exchange) : nlohmann::json(nullptr); };
  j.update({{"scheme_run", scheme_name(t.scheme)}, {"pieces_run", t.pieces}, {"growth_run", t.piece_growth}, {"transfers", t.transfers},
            {"ms", total_ms}, {"gkeys_per_s", double(total) / total_ms / 1e6},
            {"phases_ms", {{"agree", agree}, {"splitters", splitters}, {"partition", partition}, {"exchange", exchange}, {"local", local}}},
            {"phases_sum_ms", agree + splitters + partition + exchange + local},
            {"splitter_rounds", t.splitter_rounds}, {"splitter_launches", t.splitter_launches}, {"stage_passes", t.stage_passes}, {"local_passes", t.local_passes},
            {"balance", double(t.largest) / (double(total) / G)},
            {"moved_bytes_per_gpu", moved_per_gpu}, {"realigned", grp.sum_over_ranks(std::uint64_t(t.realigned))},
            {"copied", grp.sum_over_ranks(std::uint64_t(t.copied))},
            {"exchange_gb_per_s_per_gpu", moved_per_gpu / exchange / 1e6},
            {"nccl_same_bytes_ms", moves ? nlohmann::json(same_bytes_ms) : nlohmann::json(nullptr)},
            {"exchange_vs_nccl_same_bytes", ratio(same_bytes_ms)},
            {"nccl_same_transfers_ms", moves ? nlohmann::json(same_transfers_ms) : nlohmann::json(nullptr)},
            {"exchange_vs_nccl_same_transfers", ratio(same_transfers_ms)},
            {"verified", verified}});
  if (single_ms > 0) {
    j["single_gpu_ms"] = single_ms;
    j["speedup_vs_single_gpu"] = single_ms / total_ms;
  } else {
    j["single_gpu_ms"] = nullptr;  // more keys than one GPU's sort takes (2^31 - 1) or its memory holds
  }
  if (grp.leader()) {
    char vs[64] = "nothing moves";
    if (moves)
      std::snprintf(vs, sizeof vs, "%.0f%% of NCCL, %.0f%% in its groups", 100.0 * same_bytes_ms / exchange,
                    100.0 * same_transfers_ms / exchange);
    std::printf("%-9s %-5s 2^%d/GPU x %d %-17s (%s:%d): %8.2f ms %6.1f GKeys/s | split %.2f part %.2f exch %.2f (%.0f GB/s/GPU, %s, %d transfers) local %.2f | balance %.4f | 1 GPU %s%s\n",
                dist_name(k.dist), k.pairs ? "pairs" : "keys", k.log2n, G, way_name(k.way).c_str(), scheme_name(t.scheme), t.pieces,
                total_ms, double(total) / total_ms / 1e6, splitters, partition, exchange, moved_per_gpu / exchange / 1e6, vs,
                t.transfers, local, double(t.largest) / (double(total) / G),
                single_ms > 0 ? (std::to_string(single_ms) + " ms, x" + std::to_string(single_ms / total_ms)).c_str() : "n/a",
                verified ? "" : " | RESULT WRONG");
    std::fflush(stdout);
  }
  return j;
}

// [SECTION] the command line

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(item);
  return v;
}

std::vector<int> parse_sizes(const std::string& s) {
  std::vector<int> v;
  for (const std::string& item : split(s)) {
    char* end = nullptr;
    const long x = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || x < 10 || x > 30) die("--log2 takes sizes 10 to 30, comma-separated: '" + item + "'");
    v.push_back(int(x));
  }
  return v;
}

// scheme[:pieces[:growth]], each way of a comma-separated list.
std::vector<Way> parse_ways(const std::string& s) {
  std::vector<Way> v;
  for (const std::string& item : split(s)) {
    std::stringstream fields(item);
    std::string scheme, pieces, growth, extra;
    std::getline(fields, scheme, ':');
    std::getline(fields, pieces, ':');
    std::getline(fields, growth, ':');
    Way w{DistributedScheme::Auto, 0, 0};
    if (scheme == "sort-first") w.scheme = DistributedScheme::SortFirst;
    else if (scheme == "partition-first") w.scheme = DistributedScheme::PartitionFirst;
    else if (scheme != "auto") die("--ways takes auto, sort-first or partition-first, each with :pieces and :growth: '" + item + "'");
    char* end = nullptr;
    if (!pieces.empty()) w.pieces = int(std::strtol(pieces.c_str(), &end, 10));
    if ((!pieces.empty() && *end != '\0') || w.pieces < 0 || w.pieces > primlab::kDistributedMaxPieces)
      die("pieces go from 0 (tuned) to 16: '" + item + "'");
    if (!growth.empty()) w.growth = std::strtod(growth.c_str(), &end);
    if ((!growth.empty() && *end != '\0') || std::getline(fields, extra) ||
        !(w.growth == 0 || (w.growth >= 1 && w.growth <= primlab::kDistributedMaxPieceGrowth)))
      die("growth goes from 1 to 4 (0: tuned): '" + item + "'");
    v.push_back(w);
  }
  return v;
}

// The unique id through a file: rank 0 writes it (whole, then renamed into place), the others
// wait for it.
ncclUniqueId share_id(int rank, const std::string& path) {
  ncclUniqueId id;
  if (rank == 0) {
    check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(id.internal, sizeof(id.internal));
    if (std::rename(tmp.c_str(), path.c_str()) != 0) die("cannot write " + path);
    return id;
  }
  for (int i = 0; i < 6000; ++i) {
    std::ifstream f(path, std::ios::binary);
    if (f && f.read(id.internal, sizeof(id.internal))) return id;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  die("no unique id in " + path + " after 60 s");
}

std::string version(int v, int major_div, int minor_div, int minor_mod) {
  return std::to_string(v / major_div) + "." + std::to_string(v / minor_div % minor_mod);
}

int run(int argc, char** argv) {
  std::vector<int> sizes = {26, 28, 30};
  std::vector<bool> kinds = {false, true};
  std::vector<Dist> dists = {Dist::Uniform, Dist::Skewed, Dist::AllEqual};
  std::vector<Way> ways = {{DistributedScheme::SortFirst, 4, 0}, {DistributedScheme::PartitionFirst, 4, 0}};
  int reps = 5, gpus_asked = 0, rank = -1, ranks = 0;
  bool single = true, registered = false;
  std::string json_path, id_file, transport = "nccl", commit = std::getenv("PRIMLAB_COMMIT") ? std::getenv("PRIMLAB_COMMIT") : "unknown";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-single") { single = false; continue; }
    if (a == "--register") { registered = true; continue; }
    if (i + 1 >= argc) die("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--log2") sizes = parse_sizes(v);
    else if (a == "--reps") { reps = std::atoi(v.c_str()); if (reps < 1 || reps > 100) die("--reps takes 1 to 100"); }
    else if (a == "--gpus") gpus_asked = std::atoi(v.c_str());
    else if (a == "--kinds") {
      kinds.clear();
      for (const std::string& x : split(v)) {
        if (x != "keys" && x != "pairs") die("--kinds takes keys and pairs");
        kinds.push_back(x == "pairs");
      }
    } else if (a == "--dists") {
      dists.clear();
      for (const std::string& x : split(v)) {
        if (x == "uniform") dists.push_back(Dist::Uniform);
        else if (x == "skewed") dists.push_back(Dist::Skewed);
        else if (x == "all-equal") dists.push_back(Dist::AllEqual);
        else die("--dists takes uniform, skewed and all-equal");
      }
    } else if (a == "--ways") ways = parse_ways(v);
    else if (a == "--json") json_path = v;
    else if (a == "--commit") commit = v;
    else if (a == "--rank") rank = std::atoi(v.c_str());
    else if (a == "--ranks") ranks = std::atoi(v.c_str());
    else if (a == "--id-file") id_file = v;
    else if (a == "--transport") {
      if (v != "nccl" && v != "peer") die("--transport takes nccl or peer");
      transport = v;
    }
    else die("unknown option " + a);
  }
  if (registered && transport == "peer") die("--register registers NCCL's buffers: it takes --transport nccl");
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  Group grp;
  if (rank >= 0) {  // one process per GPU
    if (ranks < 1 || rank >= ranks || ranks > devices || id_file.empty()) die("--rank R takes --ranks G (up to the GPUs) and --id-file");
    if (transport == "peer") die("--transport peer drives every GPU from one process: it takes no --rank");
    grp.one_process = false;
    grp.size = ranks;
    Gpu g;
    g.device = g.rank = rank;
    check(cudaSetDevice(rank), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(ncclCommInitRank(&g.comm, ranks, share_id(rank, id_file), rank), "ncclCommInitRank");
    grp.gpus.push_back(g);
    single = false;  // the one-GPU baselines come from a one-process run
  } else {
    grp.size = gpus_asked > 0 ? gpus_asked : devices;
    if (grp.size > devices) die("--gpus " + std::to_string(grp.size) + ": only " + std::to_string(devices) + " GPUs");
    std::vector<ncclComm_t> comms(grp.size);
    std::vector<int> list(grp.size);
    for (int g = 0; g < grp.size; ++g) list[g] = g;
    check(ncclCommInitAll(comms.data(), grp.size, list.data()), "ncclCommInitAll");
    for (int g = 0; g < grp.size; ++g) {
      Gpu gpu;
      gpu.device = gpu.rank = g;
      gpu.comm = comms[g];
      check(cudaSetDevice(g), "cudaSetDevice");
      check(cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking), "cudaStreamCreate");
      grp.gpus.push_back(gpu);
    }
  }
  std::string error;
  if (transport == "peer") {
    std::vector<primlab::PeerRank> peer_ranks;
    for (const Gpu& g : grp.gpus) peer_ranks.push_back({g.device, g.stream});
    std::unique_ptr<primlab::PeerExchange> peer;
    check(primlab::PeerExchange::create(peer_ranks, peer, &error), error.c_str());
    grp.transport = std::move(peer);
  } else {
    std::vector<primlab::NcclRank> nccl_ranks;
    for (const Gpu& g : grp.gpus) nccl_ranks.push_back({g.comm, g.stream});
    std::unique_ptr<primlab::NcclExchange> nccl;
    check(primlab::NcclExchange::create(nccl_ranks, nccl, &error), error.c_str());
    if (registered) grp.registers = nccl.get();
    grp.transport = std::move(nccl);
  }
  grp.ex = std::make_unique<RecordingExchange>(*grp.transport);

  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, grp.gpus.front().device), "cudaGetDeviceProperties");
  int nccl_version = 0, runtime = 0, driver = 0;
  check(ncclGetVersion(&nccl_version), "ncclGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  char date[16];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  nlohmann::json out = {
      {"gpu", prop.name}, {"gpu_count", grp.size}, {"gpus_on_machine", devices},
      {"processes", grp.one_process ? 1 : grp.size}, {"transport", transport}, {"registered", registered}, {"date", date}, {"commit", commit}, {"primlab", PRIMLAB_VERSION_STRING},
      {"cuda_runtime", version(runtime, 1000, 10, 100)}, {"cuda_driver", version(driver, 1000, 10, 100)},
      {"nccl_version", version(nccl_version, 10000, 100, 100) + "." + std::to_string(nccl_version % 100)},
      {"cub_version", std::to_string(CUB_VERSION / 100000) + "." + std::to_string(CUB_VERSION / 100 % 1000) + "." + std::to_string(CUB_VERSION % 100)},
      {"nccl_nvls_enable", std::getenv("NCCL_NVLS_ENABLE") ? std::getenv("NCCL_NVLS_ENABLE") : "unset"},
      {"reps", reps},
      {"method", "host wall clock around each call, every GPU synchronised (one process per GPU: from a barrier to the "
                 "slowest rank); median of reps (3 at 2^30 keys per GPU) after one warm-up. phases_ms from a separate "
                 "set of runs that wait after each step, so nothing overlaps there: phases_sum_ms - ms is what the "
                 "overlap hides. For partition-first, `partition` is the partition with the copies that ready the "
                 "runs; for sort-first it is the local sort and `local` the merges; `exchange` is the transfers alone, "
                 "back to back as the call starts them, waited for at the end. "
                 "nccl_same_bytes_ms: NCCL's grouped send/recv of the bytes each rank's transfers moved to each peer, "
                 "in one group, from and to 256-byte boundaries; nccl_same_transfers_ms: the same in the call's own "
                 "transfers (one group each, back to back); exchange_vs_* = that time / the exchange step's (null "
                 "where nothing moves). verified: the last run's keys are in order on and across the ranks, and hold "
                 "the input's (key, value) pairs (a hash summed over the ranks). single_gpu_ms: primlab's sort of the "
                 "same total keys of the same distribution on the first GPU, in this run."},
      {"results", nlohmann::json::array()}};
  auto save = [&] {
    if (json_path.empty() || !grp.leader()) return;
    std::ofstream f(json_path);
    if (!f) die("cannot write " + json_path);
    f << out.dump(2) << "\n";
  };
  if (grp.leader())
    std::printf("%d x %s (%d on the machine, %s, %s), NCCL %s, CUDA %s, driver %s\n", grp.size, prop.name, devices,
                grp.one_process ? "one process" : "one process per GPU",
                transport == "peer" ? "CUDA peer copies" : "over NCCL", out["nccl_version"].get<std::string>().c_str(),
                out["cuda_runtime"].get<std::string>().c_str(), out["cuda_driver"].get<std::string>().c_str());

  // The cost model's inputs: the copy rate, one GPU's sort and partition of a shard, NCCL's
  // all-to-all of a shard (equal chunks to every rank, itself included), aligned and at 4-byte
  // offsets.
  if (grp.leader()) out["hbm_copy_gb_per_s"] = copy_gb_per_s(grp, std::size_t(1) << 30, 10);
  out["shard"] = nlohmann::json::array();
  for (int log2n : sizes)
    for (bool pairs : kinds) {
      const std::int64_t n = std::int64_t(1) << log2n;
      const int r = log2n >= 30 ? std::min(reps, 3) : reps;
      const std::size_t bytes = std::size_t(n) * (pairs ? 8 : 4), chunk = bytes / grp.size / 256 * 256;
      const Traffic even{std::vector<std::size_t>(grp.gpus.size() * std::size_t(grp.size), chunk),
                         std::vector<std::size_t>(grp.gpus.size() * std::size_t(grp.size), chunk)};
      const double a2a = nccl_ms(grp, {even}, r);
      const double a2a_4 = nccl_ms(grp, {even}, r, 4);
      const double per_gpu = double(chunk) * (grp.size - 1);
      nlohmann::json s = {{"keys_per_gpu_log2", log2n}, {"pairs", pairs},
                          {"nccl_alltoall_ms", a2a}, {"nccl_alltoall_gb_per_s_per_gpu", per_gpu / a2a / 1e6},
                          {"nccl_alltoall_4b_offset_gb_per_s_per_gpu", per_gpu / a2a_4 / 1e6}};
      if (single) {
        s["one_gpu_sort_ms"] = one_gpu_ms(grp, n, pairs, Dist::Uniform, false, r);
        s["one_gpu_partition_ms"] = one_gpu_ms(grp, n, pairs, Dist::Uniform, true, r);
      }
      out["shard"].push_back(s);
    }
  save();
  // The one-GPU baselines: the same total keys, per kind and distribution.
  std::map<std::tuple<std::int64_t, bool, int>, double> one_gpu;
  if (single)
    for (int log2n : sizes)
      for (bool pairs : kinds)
        for (Dist d : dists) {
          const std::int64_t total = (std::int64_t(1) << log2n) * grp.size;
          one_gpu[{total, pairs, int(d)}] = one_gpu_ms(grp, total, pairs, d, false, log2n >= 30 ? std::min(reps, 3) : reps);
        }
  for (int log2n : sizes)
    for (bool pairs : kinds)
      for (Dist d : dists)
        for (const Way& w : ways) {
          try {
            out["results"].push_back(run_case(grp, {log2n, pairs, d, w}, log2n >= 30 ? std::min(reps, 3) : reps, one_gpu));
          } catch (const CaseFailed& e) {
            out["results"].push_back({{"keys_per_gpu_log2", log2n}, {"pairs", pairs}, {"keys", dist_name(d)},
                                      {"way", way_name(w)}, {"error", e.what()}});
            if (grp.leader()) std::printf("%s %s 2^%d/GPU %s: FAILED: %s\n", dist_name(d), pairs ? "pairs" : "keys", log2n,
                                          way_name(w).c_str(), e.what());
          }
          save();
        }
  grp.ex.reset();
  grp.transport.reset();
  for (const Gpu& g : grp.gpus) ncclCommDestroy(g.comm);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a device allocation that failed (primlab::DeviceError)
    die(e.what());
  }
}
