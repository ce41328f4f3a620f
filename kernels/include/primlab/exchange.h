// Exchange: the transport under the multi-GPU primitives (primlab/distributed.h), kept to the two
// collectives they need. One process drives one or more ranks of a group (one per GPU with
// NCCL, or all G virtual ranks of the loopback); every call takes one entry per rank this process
// drives, in local order, and returns when the transfer is queued (all_to_all_v) or done
// (all_gather). Two implementations: LoopbackExchange below (G virtual ranks on one GPU, for tests
// and teaching) and NcclExchange (primlab/exchange_nccl.h, when the build has NCCL).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "primlab/status.h"

namespace primlab {

// Rank r sends send_bytes[s] bytes at d_send + send_offsets[s] to every rank s (itself included),
// and receives recv_bytes[s] bytes from rank s at d_recv + recv_offsets[s]. Each array has one
// entry per rank of the group; the two sides must agree on the sizes.
struct ExchangePlan {
  const void* d_send = nullptr;
  const std::size_t* send_bytes = nullptr;
  const std::size_t* send_offsets = nullptr;
  void* d_recv = nullptr;
  const std::size_t* recv_bytes = nullptr;
  const std::size_t* recv_offsets = nullptr;
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int size() const = 0;                    // ranks in the group (G)
  virtual int local_count() const = 0;             // ranks this process drives
  virtual int rank(int local) const = 0;           // the group rank of the local-th driven rank
  virtual int device(int local) const = 0;         // its CUDA device
  virtual cudaStream_t stream(int local) const = 0;
  // Host to host: h_local holds count values per driven rank (local-major); every rank's values
  // arrive rank-major in h_all (size() * count). Synchronous. count <= max_gather_count().
  virtual Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) = 0;
  virtual std::size_t max_gather_count() const = 0;
  // Device to device: `parts` plans per driven rank (plans[local * parts + part]), moved as one
  // transfer (with NCCL, one group: one kernel per GPU); ordered on each driven rank's stream.
  virtual Status all_to_all_v(const ExchangePlan* plans, int parts) = 0;
  // Why the last call that returned CommError failed (the transport's own message).
  virtual std::string last_error() const = 0;
};

// G virtual ranks on the current CUDA device, all driven by this process, ordered on one stream:
// all_gather copies on the host, all_to_all_v is device-to-device copies.
class LoopbackExchange final : public Exchange {
 public:
  LoopbackExchange(int ranks, cudaStream_t stream);
  int size() const override { return ranks_; }
  int local_count() const override { return ranks_; }
  int rank(int local) const override { return local; }
  int device(int) const override { return device_; }
  cudaStream_t stream(int) const override { return stream_; }
  Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override;
  std::size_t max_gather_count() const override { return ~std::size_t(0); }
  Status all_to_all_v(const ExchangePlan* plans, int parts) override;
  std::string last_error() const override { return {}; }

 private:
  int ranks_;
  int device_ = 0;
  cudaStream_t stream_;
};

}  // namespace primlab
