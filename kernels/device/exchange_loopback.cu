// LoopbackExchange: G virtual ranks on one device (see primlab/exchange.h), and the events that
// order a transfer's stream against a rank's, which PeerExchange and NcclExchange share.
#include <cstring>

#include "primlab/exchange.h"
#include "util/cuda_check.cuh"

namespace primlab {

namespace detail {

cudaError_t TransferEvents::create() {
  for (int i = 0; i < kSlots; ++i) {
    cudaError_t e = cudaEventCreateWithFlags(&ready_[i], cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

void TransferEvents::destroy() {
  for (int i = 0; i < kSlots; ++i) {
    if (ready_[i]) cudaEventDestroy(ready_[i]);
    if (done_[i]) cudaEventDestroy(done_[i]);
    ready_[i] = done_[i] = nullptr;
  }
}

cudaError_t TransferEvents::start(int ticket, cudaStream_t rank_stream, cudaStream_t transfer) {
  const cudaError_t e = cudaEventRecord(ready_[ticket % kSlots], rank_stream);
  return e != cudaSuccess ? e : cudaStreamWaitEvent(transfer, ready_[ticket % kSlots], 0);
}

cudaError_t TransferEvents::finish(int ticket, cudaStream_t transfer) {
  return cudaEventRecord(done_[ticket % kSlots], transfer);
}

cudaError_t TransferEvents::join(int ticket, cudaStream_t rank_stream) const {
  return cudaStreamWaitEvent(rank_stream, done_[ticket % kSlots], 0);
}

cudaError_t TransferEvents::wait_ready(int ticket, cudaStream_t stream) const {
  return cudaStreamWaitEvent(stream, ready_[ticket % kSlots], 0);
}

bool plans_agree(const ExchangePlan* plans, int parts, int ranks) {
  auto plan = [&](int r, int part) -> const ExchangePlan& { return plans[std::size_t(r) * parts + part]; };
  for (int part = 0; part < parts; ++part)
    for (int r = 0; r < ranks; ++r)
      for (int s = 0; s < ranks; ++s)
        if (plan(r, part).send_bytes[s] != plan(s, part).recv_bytes[r]) return false;
  return true;
}

void gather_local(const std::int64_t* h_local, std::size_t count, int ranks, std::int64_t* h_all) {
  if (count > 0) std::memmove(h_all, h_local, count * std::size_t(ranks) * sizeof(std::int64_t));
}

}  // namespace detail

LoopbackExchange::LoopbackExchange(int ranks, cudaStream_t stream) : ranks_(ranks), stream_(stream) {
  if (cudaGetDevice(&device_) != cudaSuccess) {
    cudaGetLastError();
    device_ = 0;
  }
  if (cudaStreamCreateWithFlags(&transfer_, cudaStreamNonBlocking) != cudaSuccess || events_.create() != cudaSuccess) {
    cudaGetLastError();
    if (transfer_) cudaStreamDestroy(transfer_);
    transfer_ = nullptr;
  }
}

LoopbackExchange::~LoopbackExchange() {
  events_.destroy();
  if (transfer_) cudaStreamDestroy(transfer_);
}

Status LoopbackExchange::all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) {
  detail::gather_local(h_local, count, ranks_, h_all);
  return Status::Success;
}

Status LoopbackExchange::all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) {
  if (transfer_ == nullptr) return Status::CudaError;
  auto plan = [&](int r, int part) -> const ExchangePlan& { return plans[std::size_t(r) * parts + part]; };
  if (!detail::plans_agree(plans, parts, ranks_)) return Status::InvalidArgument;
  const int t = next_ticket_++;
  PRIMLAB_CUDA_TRY(events_.start(t, stream_, transfer_));
  for (int part = 0; part < parts; ++part) {
    for (int r = 0; r < ranks_; ++r) {
      for (int s = 0; s < ranks_; ++s) {
        const std::size_t bytes = plan(r, part).send_bytes[s];
        if (bytes == 0) continue;
        const unsigned char* from = static_cast<const unsigned char*>(plan(r, part).d_send) + plan(r, part).send_offsets[s];
        unsigned char* to = static_cast<unsigned char*>(plan(s, part).d_recv) + plan(s, part).recv_offsets[r];
        PRIMLAB_CUDA_TRY(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, transfer_));
      }
    }
  }
  PRIMLAB_CUDA_TRY(events_.finish(t, transfer_));
  *ticket = t;
  return Status::Success;
}

Status LoopbackExchange::join(int, int ticket) {
  if (transfer_ == nullptr) return Status::CudaError;
  PRIMLAB_CUDA_TRY(events_.join(ticket, stream_));
  return Status::Success;
}

}  // namespace primlab
