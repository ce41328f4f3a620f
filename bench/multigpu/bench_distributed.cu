// bench-multigpu: the multi-GPU sort over NCCL on every GPU of the machine, one process driving
// them (ncclCommInitAll). For each size (keys per GPU) and for keys and u32 pairs: the aggregate
// rate, each step's time, the balance, the exchange's bandwidth against NCCL's own all-to-all of
// the same bytes, and the speed-up over primlab's single-GPU sort of the same total where it fits.
//   bench-multigpu [--log2 28,30] [--reps 5] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "primlab/device_buffer.h"
#include "primlab/distributed.h"
#include "primlab/exchange_nccl.h"
#include "primlab/radix_sort.h"
#include "primlab/version.h"
#include <cub/version.cuh>

namespace {

using Clock = std::chrono::steady_clock;

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

__global__ void fill_uniform(std::uint32_t* keys, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    std::uint32_t x = std::uint32_t(i) * 0x9E3779B1u ^ seed ^ std::uint32_t(i >> 32) * 0x85EBCA77u;
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    keys[i] = x;
  }
}
// Skewed: 70 % of the keys share the top byte 0x42 (their other bits uniform), the rest are
// uniform: every cut falls inside that one bucket, so the splitters refine with the next digit.
__global__ void fill_skewed(std::uint32_t* keys, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    std::uint32_t x = std::uint32_t(i) * 0x9E3779B1u ^ seed;
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    std::uint32_t y = x * 0x85EBCA77u + 0x165667B1u;
    y ^= y >> 13; y *= 0xC2B2AE3Du; y ^= y >> 16;
    keys[i] = y % 10 < 7 ? (0x42000000u | (x & 0xFFFFFFu)) : x;
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

struct Gpu {
  int device = 0;
  cudaStream_t stream = nullptr;
  ncclComm_t comm = nullptr;
};

void sync_all(const std::vector<Gpu>& gpus) {
  for (const Gpu& g : gpus) {
    check(cudaSetDevice(g.device), "cudaSetDevice");
    check(cudaStreamSynchronize(g.stream), "cudaStreamSynchronize");
  }
}

// Median wall time of `reps` runs of f (after one warm-up), all GPUs synchronised around each.
double time_ms(const std::vector<Gpu>& gpus, int reps, const std::function<void()>& f) {
  f();
  sync_all(gpus);
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    f();
    sync_all(gpus);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median(ms);
}

// NCCL's own all-to-all of `bytes` per GPU (equal chunks to every rank, grouped send/recv). The
// runs of a partition start and end anywhere: with `offset`, every chunk starts that many bytes
// past its 16-byte aligned place; with `shorter`, it is that many bytes shorter.
double nccl_alltoall_ms(const std::vector<Gpu>& gpus, std::size_t bytes, int reps, std::size_t offset = 0,
                        std::size_t shorter = 0, bool words = false) {
  const int G = int(gpus.size());
  std::vector<primlab::DeviceBuffer<char>> send, recv;
  for (const Gpu& g : gpus) {
    check(cudaSetDevice(g.device), "cudaSetDevice");
    send.emplace_back(bytes);
    recv.emplace_back(bytes);
  }
  const std::size_t chunk = bytes / G;
  return time_ms(gpus, reps, [&] {
    check(ncclGroupStart(), "ncclGroupStart");
    for (int r = 0; r < G; ++r)
      for (int s = 0; s < G; ++s) {
        const std::size_t at = s * chunk + offset, len = chunk - 16 - shorter;
        const ncclDataType_t type = words ? ncclUint32 : ncclChar;  // 4-byte elements, or bytes
        const std::size_t count = words ? len / 4 : len;
        check(ncclSend(send[r].get() + at, count, type, s, gpus[r].comm, gpus[r].stream), "ncclSend");
        check(ncclRecv(recv[r].get() + at, count, type, s, gpus[r].comm, gpus[r].stream), "ncclRecv");
      }
    check(ncclGroupEnd(), "ncclGroupEnd");
  });
}

// primlab's single-GPU sort of `total` keys (and values) on the first GPU; < 0 where it does not fit.
double single_gpu_ms(const Gpu& g, std::int64_t total, bool pairs, int reps) {
  if (total > (std::int64_t(1) << 31) - 1) return -1;
  check(cudaSetDevice(g.device), "cudaSetDevice");
  std::size_t free_bytes = 0, all = 0;
  check(cudaMemGetInfo(&free_bytes, &all), "cudaMemGetInfo");
  const std::size_t ws_bytes = pairs ? primlab::radix_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(total)
                                     : primlab::radix_sort_keys_workspace_bytes<std::uint32_t>(total);
  const std::size_t need = std::size_t(total) * 4 * (pairs ? 4 : 2) + ws_bytes;
  if (need > free_bytes * 9 / 10) return -1;
  primlab::DeviceBuffer<std::uint32_t> in(total), out(total), vin(pairs ? total : 1), vout(pairs ? total : 1);
  primlab::DeviceBuffer<unsigned char> ws(std::max<std::size_t>(ws_bytes, 1));
  fill_uniform<<<1024, 256, 0, g.stream>>>(in.get(), total, 7);
  if (pairs) fill_iota<<<1024, 256, 0, g.stream>>>(vin.get(), total);
  return time_ms({g}, reps, [&] {
    const primlab::Workspace w{ws.get(), ws_bytes};
    check(pairs ? primlab::radix_sort_pairs(in.get(), out.get(), vin.get(), vout.get(), total, primlab::SortOrder::Ascending,
                                            0, 32, w, g.stream)
                : primlab::radix_sort_keys(in.get(), out.get(), total, primlab::SortOrder::Ascending, 0, 32, w, g.stream),
          "single-GPU sort");
  });
}

nlohmann::json run_case(const std::vector<Gpu>& gpus, primlab::Exchange& ex, int log2n, bool pairs, bool skewed,
                        int reps) {
  const int G = int(gpus.size());
  const std::int64_t n = std::int64_t(1) << log2n, total = n * G;
  const std::int64_t cap = primlab::distributed_capacity(total, G);
  std::vector<primlab::DeviceBuffer<std::uint32_t>> keys_in, keys_out, values_in, values_out;
  std::vector<primlab::DeviceBuffer<unsigned char>> ws;
  std::vector<primlab::Shard<std::uint32_t, std::uint32_t>> shards(G);
  for (int r = 0; r < G; ++r) {
    check(cudaSetDevice(gpus[r].device), "cudaSetDevice");
    const std::size_t bytes = pairs ? primlab::distributed_sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, cap, G)
                                    : primlab::distributed_sort_keys_workspace_bytes<std::uint32_t>(n, cap, G);
    keys_in.emplace_back(n);
    keys_out.emplace_back(cap);
    values_in.emplace_back(pairs ? n : 1);
    values_out.emplace_back(pairs ? cap : 1);
    ws.emplace_back(bytes);
    if (skewed) fill_skewed<<<1024, 256, 0, gpus[r].stream>>>(keys_in[r].get(), n, 1234567u * (r + 1));
    else fill_uniform<<<1024, 256, 0, gpus[r].stream>>>(keys_in[r].get(), n, 1234567u * (r + 1));
    if (pairs) fill_iota<<<1024, 256, 0, gpus[r].stream>>>(values_in[r].get(), n);
    shards[r] = {keys_in[r].get(), keys_out[r].get(), n, cap, {ws[r].get(), bytes},
                 pairs ? values_in[r].get() : nullptr, pairs ? values_out[r].get() : nullptr};
  }
  auto sort = [&](primlab::DistributedTimes* t) {
    check(pairs ? primlab::distributed_sort_pairs(ex, shards.data(), primlab::SortOrder::Ascending, 0, 32, t)
                : primlab::distributed_sort_keys(ex, shards.data(),
                                                 primlab::SortOrder::Ascending, 0, 32, t),
          "distributed sort", &ex);
  };
  const double total_ms = time_ms(gpus, reps, [&] { sort(nullptr); });
  std::vector<primlab::DistributedTimes> phases(reps);
  for (auto& p : phases) sort(&p);
  auto med = [&](double primlab::DistributedTimes::*f) {
    std::vector<double> v;
    for (const auto& p : phases) v.push_back(p.*f);
    return median(v);
  };
  const primlab::DistributedTimes& t = phases[0];
  const double exchange_ms = med(&primlab::DistributedTimes::exchange);
  const std::size_t elem = pairs ? 8 : 4;
  // Bytes that leave the average GPU in our exchange, and in NCCL's all-to-all of a whole shard.
  const double moved_per_gpu = double(t.moved) * elem / G;
  const double a2a_ms = nccl_alltoall_ms(gpus, std::size_t(n) * elem, reps);
  const double a2a_per_gpu = double(n) * elem * (G - 1) / G;
  const double a2a_offset_ms = nccl_alltoall_ms(gpus, std::size_t(n) * elem, reps, 4, 0);
  const double a2a_offset16_ms = nccl_alltoall_ms(gpus, std::size_t(n) * elem, reps, 16, 0);
  const double a2a_shorter_ms = nccl_alltoall_ms(gpus, std::size_t(n) * elem, reps, 0, 4);
  const double a2a_offset_words_ms = nccl_alltoall_ms(gpus, std::size_t(n) * elem, reps, 4, 0, true);
  const double single_ms = skewed ? -1 : single_gpu_ms(gpus[0], total, pairs, reps);
  nlohmann::json j = {
      {"keys_per_gpu_log2", log2n}, {"pairs", pairs}, {"keys", skewed ? "skewed (70 % share the top byte 0x42)" : "uniform"}, {"total_keys", total}, {"ms", total_ms},
      {"gkeys_per_s", total / total_ms / 1e6},
      {"phases_ms", {{"agree", med(&primlab::DistributedTimes::agree)}, {"splitters", med(&primlab::DistributedTimes::splitters)},
                     {"partition", med(&primlab::DistributedTimes::partition)}, {"exchange", exchange_ms},
                     {"local_sort", med(&primlab::DistributedTimes::local)}}},
      {"splitter_rounds", t.splitter_rounds}, {"balance", double(t.largest) / (double(total) / G)},
      {"exchange_gb_per_s_per_gpu", moved_per_gpu / exchange_ms / 1e6},
      {"nccl_alltoall_ms", a2a_ms}, {"nccl_alltoall_gb_per_s_per_gpu", a2a_per_gpu / a2a_ms / 1e6},
      {"nccl_alltoall_4b_offset_gb_per_s_per_gpu", a2a_per_gpu / a2a_offset_ms / 1e6},
      {"nccl_alltoall_16b_offset_gb_per_s_per_gpu", a2a_per_gpu / a2a_offset16_ms / 1e6},
      {"nccl_alltoall_4b_shorter_gb_per_s_per_gpu", a2a_per_gpu / a2a_shorter_ms / 1e6},
      {"nccl_alltoall_4b_offset_u32_elements_gb_per_s_per_gpu", a2a_per_gpu / a2a_offset_words_ms / 1e6},
      {"exchange_vs_nccl_alltoall", (moved_per_gpu / exchange_ms) / (a2a_per_gpu / a2a_ms)}};
  if (single_ms > 0) {
    j["single_gpu_ms"] = single_ms;
    j["speedup_vs_single_gpu"] = single_ms / total_ms;
  } else {
    j["single_gpu_ms"] = nullptr;  // more keys than one GPU's sort takes (2^31 - 1) or its memory holds
  }
  std::printf("%s%s 2^%d/GPU x %d: %.2f ms, %.1f GKeys/s; splitters %.2f partition %.2f exchange %.2f (%.0f GB/s/GPU, NCCL a2a %.0f, at 4-byte offsets %.0f (in u32 elements %.0f), at 16-byte offsets %.0f, 4 bytes short %.0f) local %.2f ms; balance %.4f; single GPU %s\n",
              skewed ? "skewed " : "", pairs ? "pairs" : "keys", log2n, G, total_ms, total / total_ms / 1e6, med(&primlab::DistributedTimes::splitters),
              med(&primlab::DistributedTimes::partition), exchange_ms, moved_per_gpu / exchange_ms / 1e6, a2a_per_gpu / a2a_ms / 1e6, a2a_per_gpu / a2a_offset_ms / 1e6, a2a_per_gpu / a2a_offset_words_ms / 1e6,
              a2a_per_gpu / a2a_offset16_ms / 1e6, a2a_per_gpu / a2a_shorter_ms / 1e6,
              med(&primlab::DistributedTimes::local), double(t.largest) / (double(total) / G),
              single_ms > 0 ? (std::to_string(single_ms) + " ms, speed-up " + std::to_string(single_ms / total_ms)).c_str() : "n/a");
  std::fflush(stdout);
  return j;
}

std::vector<int> parse_list(const std::string& s) {
  std::vector<int> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    const long x = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || x < 10 || x > 30) die("--log2 takes sizes 10 to 30, comma-separated: '" + item + "'");
    v.push_back(int(x));
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {28, 30};
  int reps = 5;
  std::string json_path, commit = std::getenv("PRIMLAB_COMMIT") ? std::getenv("PRIMLAB_COMMIT") : "unknown";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) die("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--log2") sizes = parse_list(v);
    else if (a == "--reps") { reps = std::atoi(v.c_str()); if (reps < 1 || reps > 100) die("--reps takes 1 to 100"); }
    else if (a == "--json") json_path = v;
    else if (a == "--commit") commit = v;
    else die("unknown option " + a);
  }
  int G = 0;
  check(cudaGetDeviceCount(&G), "cudaGetDeviceCount");
  std::vector<ncclComm_t> comms(G);
  check(ncclCommInitAll(comms.data(), G, nullptr), "ncclCommInitAll");
  std::vector<Gpu> gpus(G);
  std::vector<primlab::NcclRank> ranks;
  for (int g = 0; g < G; ++g) {
    gpus[g].device = g;
    gpus[g].comm = comms[g];
    check(cudaSetDevice(g), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&gpus[g].stream, cudaStreamNonBlocking), "cudaStreamCreate");
    ranks.push_back({comms[g], gpus[g].stream});
  }
  std::unique_ptr<primlab::NcclExchange> ex;
  std::string error;
  check(primlab::NcclExchange::create(ranks, ex, &error), error.c_str());
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int nccl_version = 0, runtime = 0;
  check(ncclGetVersion(&nccl_version), "ncclGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  char date[16];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  nlohmann::json out = {{"gpu", prop.name}, {"gpu_count", G}, {"date", date}, {"commit", commit},
                        {"primlab", PRIMLAB_VERSION_STRING},
                        {"cuda_version", std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10)},
                        {"nccl_version", std::to_string(nccl_version / 10000) + "." + std::to_string(nccl_version / 100 % 100) + "." + std::to_string(nccl_version % 100)},
                        {"cub_version", std::to_string(CUB_VERSION / 100000) + "." + std::to_string(CUB_VERSION / 100 % 1000) + "." + std::to_string(CUB_VERSION % 100)},
                        {"nccl_nvls_enable", std::getenv("NCCL_NVLS_ENABLE") ? std::getenv("NCCL_NVLS_ENABLE") : "unset"},
                        {"reps", reps}, {"method", "host wall clock around each call, all GPUs synchronised; median of reps after one warm-up; phases from a separate set of runs that wait after each step; on 2 to 4 GPUs a sort's partition phase is its local sort and its local phase the merge"},
                        {"results", nlohmann::json::array()}};
  std::printf("%d x %s, NCCL %s, CUDA %s\n", G, prop.name, out["nccl_version"].get<std::string>().c_str(),
              out["cuda_version"].get<std::string>().c_str());
  for (int log2n : sizes)
    for (bool pairs : {false, true}) out["results"].push_back(run_case(gpus, *ex, log2n, pairs, false, reps));
  out["results"].push_back(run_case(gpus, *ex, sizes.front(), false, true, reps));
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    if (!f) die("cannot write " + json_path);
    f << out.dump(2) << "\n";
  }
  ex.reset();
  for (ncclComm_t c : comms) ncclCommDestroy(c);
  return 0;
}
