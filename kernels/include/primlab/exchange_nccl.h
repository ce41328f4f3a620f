// NcclExchange: the Exchange of primlab/exchange.h over NCCL communicators the caller made, one
// per GPU this process drives (one for one process per GPU; all of a node's for one process that
// drives them, as from ncclCommInitAll; any NCCL group, multi-node included). Collectives are
// grouped over the driven ranks (ncclGroupStart/End); where this process drives every rank of the
// group, the all-gather of host values is a copy on the host. The all-to-all is grouped
// ncclSend/ncclRecv on a stream the exchange makes per GPU at the device's highest priority, so
// that NCCL's kernel gets its SMs as soon as a block of a long kernel on the rank's stream ends.
// Link primlab::nccl (built when CMake finds NCCL). Keep NVLink SHARP multicast off
// (NCCL_NVLS_ENABLE=0) where the platform asks for it.
#pragma once
#include <nccl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "primlab/exchange.h"

namespace primlab {

struct NcclRank {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;  // the rank's stream, on the communicator's device
};

class NcclExchange final : public Exchange {
 public:
  // Reads each communicator's rank, size and device, and makes per driven rank the transfers'
  // stream and events and the small device buffer the all-gather stages through
  // ((size() + 1) * max_gather_count() 8-byte words). All communicators must belong to one group.
  // On failure, returns a status, leaves `out` empty and puts NCCL's message in *error when given.
  static Status create(const std::vector<NcclRank>& ranks, std::unique_ptr<NcclExchange>& out,
                       std::string* error = nullptr);
  ~NcclExchange() override;
  NcclExchange(const NcclExchange&) = delete;
  NcclExchange& operator=(const NcclExchange&) = delete;

  int size() const override { return size_; }
  int local_count() const override { return int(local_.size()); }
  int rank(int local) const override { return local_[local].rank; }
  int device(int local) const override { return local_[local].device; }
  cudaStream_t stream(int local) const override { return local_[local].nccl.stream; }
  Status all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) override;
  std::size_t max_gather_count() const override { return gather_count_; }
  Status all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) override;
  Status join(int local, int ticket) override;
  std::string last_error() const override { return last_error_; }

  // Registers [ptr, ptr + bytes) of driven rank `local`'s device with its communicator
  // (ncclCommRegister). NCCL then sends from and receives into it straight from and to the peer's
  // registered memory on the same node: one copy over NVLink instead of two through NCCL's staging
  // buffers, and fewer SMs taken from the work beside the transfer. The distributed calls send
  // from and receive into their shard's workspace, so that is what to register. NCCL maps memory
  // it can export (from ncclMemAlloc, or cuMem with a shareable handle); memory from cudaMalloc
  // registers, but its transfers still stage. NCCL's rule: for a call, every rank of the group has
  // registered its memory, or none has. Deregister memory before freeing it; the destructor
  // deregisters what is left.
  Status register_memory(int local, void* ptr, std::size_t bytes);
  Status deregister_memory(int local, void* ptr);
  // Memory from ncclMemAlloc, registered: what the transfers copy straight between the ranks.
  Status kept_workspace(int local, std::size_t bytes, Workspace* out) override;
  Status release_kept_workspaces() override;

 private:
  struct Local {
    NcclRank nccl;
    int rank = 0, device = 0;
    std::int64_t* d_gather = nullptr;  // this rank's slot, then the gathered values
    cudaStream_t transfer = nullptr;   // all_to_all_v's stream
    detail::TransferEvents events;
    std::vector<std::pair<void*, void*>> registered;  // (memory, NCCL's handle)
    Workspace kept;                                   // kept_workspace's, registered
  };
  Status release_kept(Local& l, int local);
  NcclExchange() = default;
  Status fail(ncclResult_t r, ncclComm_t comm);

  int size_ = 0;
  std::size_t gather_count_ = 0;
  std::vector<Local> local_;
  int next_ticket_ = 0;
  std::string last_error_;
};

}  // namespace primlab
