// Exchange: the transport under the multi-GPU primitives (primlab/distributed.h), kept to the two
// collectives they need. One process drives one or more ranks of a group (one per GPU with
// NCCL, or all G virtual ranks of the loopback); every call takes one entry per rank this process
// drives, in local order. all_gather returns when done; all_to_all_v returns when the transfer is
// queued, on the exchange's own stream beside each rank's, so that the rank's stream computes while
// the bytes travel, and join() orders the rank's stream after it. Three implementations:
// LoopbackExchange below (G virtual ranks on one GPU, for tests and teaching), PeerExchange below
// (the GPUs one process drives, over CUDA peer copies) and NcclExchange (primlab/exchange_nccl.h,
// when the build has NCCL: any group, one process per GPU and several nodes included).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

namespace detail {

// Orders a transfer's stream after a rank's stream (the transfer waits for what was queued before
// it) and a rank's stream after a transfer (join): per driven rank a ring of kSlots event pairs,
// transfer t taking slot t % kSlots. A join of a transfer whose slot a later one has taken waits
// for the later one, which is behind it on the same in-order stream: safe, and only a pipeline
// longer than the ring over-waits.
class TransferEvents {
 public:
  static constexpr int kSlots = 64;
  cudaError_t create();  // on the current device
  void destroy();
  cudaError_t start(int ticket, cudaStream_t rank_stream, cudaStream_t transfer);
  cudaError_t finish(int ticket, cudaStream_t transfer);
  cudaError_t join(int ticket, cudaStream_t rank_stream) const;
  // Makes another stream (another rank's transfer, maybe on another device) wait for what was
  // queued on this rank's stream before transfer `ticket`.
  cudaError_t wait_ready(int ticket, cudaStream_t stream) const;

 private:
  cudaEvent_t ready_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
};

// For transports whose every rank is this process's, in rank order (the loopback, peer copies):
// whether every plan's send sizes are its receivers' receive sizes (plans[rank * parts + part]),
// and the all-gather, which is the local values themselves.
bool plans_agree(const ExchangePlan* plans, int parts, int ranks);
void gather_local(const std::int64_t* h_local, std::size_t count, int ranks, std::int64_t* h_all);

}  // namespace detail

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
  // transfer (with NCCL, one group: one kernel per GPU). The transfer starts once the work queued
  // so far on each driven rank's stream is done and runs on the exchange's own stream; transfers
  // run one after another, in the order they were asked for. *ticket names it for join(). Its
  // buffers must not be touched until a join covers it.
  virtual Status all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) = 0;
  // Makes driven rank `local`'s stream wait for the transfer `ticket` and every one before it.
  virtual Status join(int local, int ticket) = 0;
  // Why the last call that returned CommError failed (the transport's own message).
  virtual std::string last_error() const = 0;
  // A workspace of at least `bytes` on driven rank `local`'s device in memory this transport moves
  // fastest, kept by the transport for callers that take a workspace per call: valid until a
  // later request for the rank asks for more, release_kept_workspaces() or the transport's end.
  // Ask for every driven rank's before a call. Unsupported where any device memory moves as fast
  // (the default; the caller then uses its own).
  virtual Status kept_workspace(int /*local*/, std::size_t /*bytes*/, Workspace* /*out*/) {
    return Status::Unsupported;
  }
  // Gives the kept workspaces back, once the ranks' streams are done with them.
  virtual Status release_kept_workspaces() { return Status::Success; }
};

// G virtual ranks on the current CUDA device, all driven by this process on one stream:
// all_gather copies on the host, all_to_all_v is device-to-device copies on a second stream (so
// that a missing join shows in the tests as it would over NCCL).
class LoopbackExchange final : public Exchange {
 public:
  LoopbackExchange(int ranks, cudaStream_t stream);
  ~LoopbackExchange() override;
  LoopbackExchange(const LoopbackExchange&) = delete;
  LoopbackExchange& operator=(const LoopbackExchange&) = delete;
  int size() const override { return ranks_; }
  int local_count() const override { return ranks_; }
  int rank(int local) const override { return local; }
  int device(int) const override { return device_; }
  cudaStream_t stream(int) const override { return stream_; }
  Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override;
  std::size_t max_gather_count() const override { return ~std::size_t(0); }
  Status all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) override;
  Status join(int local, int ticket) override;
  std::string last_error() const override { return {}; }

 private:
  int ranks_;
  int device_ = 0;
  cudaStream_t stream_;
  cudaStream_t transfer_ = nullptr;  // the copies' stream; null if it could not be made
  detail::TransferEvents events_;
  int next_ticket_ = 0;
};

// The GPUs this process drives, one rank each (rank i on ranks[i].device, in the order given),
// over CUDA peer copies: each message of all_to_all_v is a cudaMemcpyPeerAsync on the sender's
// transfer stream, which the copy engines carry over NVLink (or PCIe) without taking SMs from the
// work on the ranks' streams, as NCCL's kernel does. A transfer starts once the work queued so far
// on every rank's stream is done (each receives into its own buffers); join() orders a rank's
// stream after every sender's copies of the transfer. create() enables peer access between every
// two devices that allow it (where one does not, CUDA stages the copy through the host). A device
// may hold several ranks. For one process per GPU, or past one node, use NcclExchange.
struct PeerRank {
  int device = 0;
  cudaStream_t stream = nullptr;  // the rank's stream, on `device`
};

class PeerExchange final : public Exchange {
 public:
  // Makes per rank the transfer stream and events. On failure returns a status, leaves `out`
  // empty and puts CUDA's message in *error when given.
  static Status create(const std::vector<PeerRank>& ranks, std::unique_ptr<PeerExchange>& out,
                       std::string* error = nullptr);
  ~PeerExchange() override;
  PeerExchange(const PeerExchange&) = delete;
  PeerExchange& operator=(const PeerExchange&) = delete;

  int size() const override { return int(local_.size()); }
  int local_count() const override { return int(local_.size()); }
  int rank(int local) const override { return local; }
  int device(int local) const override { return local_[std::size_t(local)].peer.device; }
  cudaStream_t stream(int local) const override { return local_[std::size_t(local)].peer.stream; }
  Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override;
  std::size_t max_gather_count() const override { return ~std::size_t(0); }
  Status all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) override;
  Status join(int local, int ticket) override;
  std::string last_error() const override { return last_error_; }

 private:
  struct Local {
    PeerRank peer;
    cudaStream_t transfer = nullptr;  // its copies' stream
    detail::TransferEvents events;
  };
  PeerExchange() = default;
  Status fail(cudaError_t e);

  std::vector<Local> local_;
  int next_ticket_ = 0;
  std::string last_error_;
};

}  // namespace primlab
