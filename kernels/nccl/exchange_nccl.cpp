// NcclExchange: the Exchange over NCCL (see primlab/exchange_nccl.h).
#include "primlab/exchange_nccl.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "primlab/distributed.h"
#include "util/device_guard.h"

namespace primlab {

namespace {

Status cuda_status(cudaError_t e) {
  if (e == cudaSuccess) return Status::Success;
  cudaGetLastError();
  return e == cudaErrorMemoryAllocation ? Status::OutOfMemory : Status::CudaError;
}

}  // namespace

#define PRIMLAB_NCCL_STATUS(expr)                                \
  do {                                                           \
    const Status _s = (expr);                                    \
    if (_s != Status::Success) return _s;                        \
  } while (0)
#define PRIMLAB_NCCL_CUDA(expr) PRIMLAB_NCCL_STATUS(cuda_status(expr))
#define PRIMLAB_NCCL_TRY(expr, comm)                             \
  do {                                                           \
    const ncclResult_t _r = (expr);                              \
    if (_r != ncclSuccess) return fail(_r, comm);                \
  } while (0)

// Closes a group that `r` says may have failed inside; the first failure wins.
static ncclResult_t end_group(ncclResult_t r) {
  if (r == ncclInProgress) r = ncclSuccess;
  const ncclResult_t end = ncclGroupEnd();
  return r != ncclSuccess ? r : end;
}

Status NcclExchange::fail(ncclResult_t r, ncclComm_t comm) {
  last_error_ = std::string(ncclGetErrorString(r));
  const char* detail = ncclGetLastError(comm);
  if (detail && *detail) last_error_ += std::string(": ") + detail;
  return Status::CommError;
}

Status NcclExchange::create(const std::vector<NcclRank>& ranks, std::unique_ptr<NcclExchange>& out,
                            std::string* error) {
  out.reset();
  if (ranks.empty()) return Status::InvalidArgument;
  detail::DeviceGuard restore_device;
  std::unique_ptr<NcclExchange> ex(new NcclExchange());
  for (const NcclRank& nr : ranks) {
    if (nr.comm == nullptr) return Status::InvalidArgument;
    Local l;
    l.nccl = nr;
    int size = 0;
    ncclResult_t r = ncclCommCount(nr.comm, &size);
    if (r == ncclSuccess) r = ncclCommUserRank(nr.comm, &l.rank);
    if (r == ncclSuccess) r = ncclCommCuDevice(nr.comm, &l.device);
    if (r != ncclSuccess) {
      const Status st = ex->fail(r, nr.comm);
      if (error) *error = ex->last_error_;
      return st;
    }
    if (ex->size_ != 0 && size != ex->size_) return Status::InvalidArgument;
    ex->size_ = size;
    ex->local_.push_back(l);
  }
  // The largest all-gather of a sort: a splitter round's histograms (one per cut), or its first
  // round's two and the digit it sampled.
  ex->gather_count_ = std::max<std::size_t>(std::size_t(std::max(ex->size_ - 1, 1)) * 256, 2 * 256 + 1);
  for (Local& l : ex->local_) {
    PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
    void* p = nullptr;
    PRIMLAB_NCCL_CUDA(cudaMalloc(&p, (std::size_t(ex->size_) + 1) * ex->gather_count_ * sizeof(std::int64_t)));
    l.d_gather = static_cast<std::int64_t*>(p);
    int least = 0, greatest = 0;
    PRIMLAB_NCCL_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    PRIMLAB_NCCL_CUDA(cudaStreamCreateWithPriority(&l.transfer, cudaStreamNonBlocking, greatest));
    PRIMLAB_NCCL_CUDA(l.events.create());
  }
  out = std::move(ex);
  return Status::Success;
}

NcclExchange::~NcclExchange() {
  detail::DeviceGuard restore_device;
  for (Local& l : local_) {
    cudaSetDevice(l.device);
    if (l.transfer) cudaStreamSynchronize(l.transfer);
    for (const auto& [memory, handle] : l.registered) ncclCommDeregister(l.nccl.comm, handle);
    if (l.kept.ptr) ncclMemFree(l.kept.ptr);
    l.events.destroy();
    if (l.transfer) cudaStreamDestroy(l.transfer);
    if (l.d_gather) cudaFree(l.d_gather);
  }
}

Status NcclExchange::all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) {
  if (count > gather_count_) return Status::InvalidArgument;
  if (count == 0) return Status::Success;
  if (local_count() == size_) {
    // This process drives every rank: the values are all here, each rank's at its rank.
    std::vector<std::int64_t> all(count * std::size_t(size_));
    for (std::size_t i = 0; i < local_.size(); ++i)
      std::copy(h_local + i * count, h_local + (i + 1) * count, all.begin() + std::ptrdiff_t(std::size_t(local_[i].rank) * count));
    std::copy(all.begin(), all.end(), h_all);
    return Status::Success;
  }
  detail::DeviceGuard restore_device;
  const std::size_t bytes = count * sizeof(std::int64_t);
  for (std::size_t i = 0; i < local_.size(); ++i) {
    PRIMLAB_NCCL_CUDA(cudaSetDevice(local_[i].device));
    PRIMLAB_NCCL_CUDA(cudaMemcpyAsync(local_[i].d_gather, h_local + i * count, bytes, cudaMemcpyHostToDevice,
                                      local_[i].nccl.stream));
  }
  // A failed call inside a group still closes the group, so that NCCL is left usable.
  ncclResult_t r = ncclGroupStart();
  for (Local& l : local_)
    if (r == ncclSuccess)
      r = ncclAllGather(l.d_gather, l.d_gather + gather_count_, count, ncclInt64, l.nccl.comm, l.nccl.stream);
  PRIMLAB_NCCL_TRY(end_group(r), local_[0].nccl.comm);
  // Every driven rank received the same values; read them from the first.
  const Local& first = local_[0];
  PRIMLAB_NCCL_CUDA(cudaSetDevice(first.device));
  PRIMLAB_NCCL_CUDA(cudaMemcpyAsync(h_all, first.d_gather + gather_count_, bytes * std::size_t(size_),
                                    cudaMemcpyDeviceToHost, first.nccl.stream));
  for (Local& l : local_) {
    PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
    PRIMLAB_NCCL_CUDA(cudaStreamSynchronize(l.nccl.stream));
  }
  return Status::Success;
}

Status NcclExchange::all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) {
  detail::DeviceGuard restore_device;
  const int t = next_ticket_++;
  for (Local& l : local_) {
    PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
    PRIMLAB_NCCL_CUDA(l.events.start(t, l.nccl.stream, l.transfer));
  }
  ncclResult_t r = ncclGroupStart();
  for (std::size_t i = 0; i < local_.size() && r == ncclSuccess; ++i) {
    const Local& l = local_[i];
    for (int part = 0; part < parts && r == ncclSuccess; ++part) {
      const ExchangePlan& p = plans[i * std::size_t(parts) + std::size_t(part)];
      for (int s = 0; s < size_ && r == ncclSuccess; ++s) {
        if (p.send_bytes[s] > 0)
          r = ncclSend(static_cast<const char*>(p.d_send) + p.send_offsets[s], p.send_bytes[s], ncclChar, s,
                       l.nccl.comm, l.transfer);
        if (r == ncclSuccess && p.recv_bytes[s] > 0)
          r = ncclRecv(static_cast<char*>(p.d_recv) + p.recv_offsets[s], p.recv_bytes[s], ncclChar, s, l.nccl.comm,
                       l.transfer);
      }
    }
  }
  PRIMLAB_NCCL_TRY(end_group(r), local_[0].nccl.comm);
  for (Local& l : local_) {
    PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
    PRIMLAB_NCCL_CUDA(l.events.finish(t, l.transfer));
  }
  *ticket = t;
  return Status::Success;
}

Status NcclExchange::register_memory(int local, void* ptr, std::size_t bytes) {
  if (local < 0 || local >= local_count() || ptr == nullptr || bytes == 0) return Status::InvalidArgument;
  Local& l = local_[std::size_t(local)];
  for (const auto& r : l.registered)
    if (r.first == ptr) return Status::InvalidArgument;
  detail::DeviceGuard restore_device;
  PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
  void* handle = nullptr;
  PRIMLAB_NCCL_TRY(ncclCommRegister(l.nccl.comm, ptr, bytes, &handle), l.nccl.comm);
  l.registered.emplace_back(ptr, handle);
  return Status::Success;
}

Status NcclExchange::deregister_memory(int local, void* ptr) {
  if (local < 0 || local >= local_count()) return Status::InvalidArgument;
  Local& l = local_[std::size_t(local)];
  const auto it = std::find_if(l.registered.begin(), l.registered.end(), [&](const auto& r) { return r.first == ptr; });
  if (it == l.registered.end()) return Status::InvalidArgument;
  detail::DeviceGuard restore_device;
  PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
  void* handle = it->second;
  l.registered.erase(it);
  PRIMLAB_NCCL_TRY(ncclCommDeregister(l.nccl.comm, handle), l.nccl.comm);
  return Status::Success;
}

Status NcclExchange::kept_workspace(int local, std::size_t bytes, Workspace* out) {
  if (local < 0 || local >= local_count() || out == nullptr) return Status::InvalidArgument;
  Local& l = local_[std::size_t(local)];
  if (l.kept.ptr == nullptr || l.kept.bytes < bytes) {
    PRIMLAB_NCCL_STATUS(release_kept(l, local));
    detail::DeviceGuard restore_device;
    PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
    void* p = nullptr;
    const std::size_t size = std::max<std::size_t>(bytes, 1);
    PRIMLAB_NCCL_TRY(ncclMemAlloc(&p, size), l.nccl.comm);
    if (const Status st = register_memory(local, p, size); st != Status::Success) {
      ncclMemFree(p);
      return st;
    }
    l.kept = {p, size};
  }
  *out = l.kept;
  return Status::Success;
}

Status NcclExchange::release_kept_workspaces() {
  for (std::size_t i = 0; i < local_.size(); ++i) PRIMLAB_NCCL_STATUS(release_kept(local_[i], int(i)));
  return Status::Success;
}

Status NcclExchange::release_kept(Local& l, int local) {
  if (l.kept.ptr == nullptr) return Status::Success;
  detail::DeviceGuard restore_device;
  PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
  PRIMLAB_NCCL_CUDA(cudaStreamSynchronize(l.nccl.stream));
  PRIMLAB_NCCL_CUDA(cudaStreamSynchronize(l.transfer));
  PRIMLAB_NCCL_STATUS(deregister_memory(local, l.kept.ptr));
  PRIMLAB_NCCL_TRY(ncclMemFree(l.kept.ptr), l.nccl.comm);
  l.kept = {};
  return Status::Success;
}

Status NcclExchange::join(int local, int ticket) {
  detail::DeviceGuard restore_device;
  const Local& l = local_[std::size_t(local)];
  PRIMLAB_NCCL_CUDA(cudaSetDevice(l.device));
  PRIMLAB_NCCL_CUDA(l.events.join(ticket, l.nccl.stream));
  return Status::Success;
}

}  // namespace primlab
