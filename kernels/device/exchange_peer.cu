// PeerExchange: the GPUs of one process over CUDA peer copies (see primlab/exchange.h).
#include <string>

#include "primlab/exchange.h"
#include "util/cuda_check.cuh"
#include "util/device_guard.h"

namespace primlab {

// A copy that could not be queued is the transport's failure, with CUDA's message.
Status PeerExchange::fail(cudaError_t e) {
  cudaGetLastError();
  last_error_ = cudaGetErrorString(e);
  return Status::CommError;
}

#define PRIMLAB_PEER_TRY(expr)                   \
  do {                                           \
    const cudaError_t _e = (expr);               \
    if (_e != cudaSuccess) return fail(_e);      \
  } while (0)

Status PeerExchange::create(const std::vector<PeerRank>& ranks, std::unique_ptr<PeerExchange>& out, std::string* error) {
  out.reset();
  if (ranks.empty()) return Status::InvalidArgument;
  detail::DeviceGuard restore_device;
  std::unique_ptr<PeerExchange> ex(new PeerExchange());
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  for (const PeerRank& r : ranks)
    if (e == cudaSuccess && (r.device < 0 || r.device >= devices)) {
      if (error) *error = "no device " + std::to_string(r.device) + " (" + std::to_string(devices) + " devices)";
      return Status::InvalidArgument;
    }
  for (std::size_t i = 0; i < ranks.size() && e == cudaSuccess; ++i) {
    Local l;
    l.peer = ranks[i];
    ex->local_.push_back(l);
    Local& mine = ex->local_.back();
    e = cudaSetDevice(mine.peer.device);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&mine.transfer, cudaStreamNonBlocking);
    if (e == cudaSuccess) e = mine.events.create();
    // Peer access from this device to every other one that allows it (enabled once per pair).
    for (std::size_t j = 0; j < ranks.size() && e == cudaSuccess; ++j) {
      int can = 0;
      if (ranks[j].device == mine.peer.device) continue;
      e = cudaDeviceCanAccessPeer(&can, mine.peer.device, ranks[j].device);
      if (e == cudaSuccess && can) {
        e = cudaDeviceEnablePeerAccess(ranks[j].device, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) {
          cudaGetLastError();
          e = cudaSuccess;
        }
      }
    }
  }
  if (e != cudaSuccess) {
    if (error) *error = cudaGetErrorString(e);
    return detail::to_status(e, __FILE__, __LINE__, "PeerExchange::create");
  }
  out = std::move(ex);
  return Status::Success;
}

PeerExchange::~PeerExchange() {
  detail::DeviceGuard restore_device;
  for (Local& l : local_) {
    cudaSetDevice(l.peer.device);
    if (l.transfer) cudaStreamSynchronize(l.transfer);
    l.events.destroy();
    if (l.transfer) cudaStreamDestroy(l.transfer);
  }
}

Status PeerExchange::all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) {
  detail::gather_local(h_local, count, size(), h_all);
  return Status::Success;
}

Status PeerExchange::all_to_all_v(const ExchangePlan* plans, int parts, int* ticket) {
  const int G = size();
  auto plan = [&](int r, int part) -> const ExchangePlan& { return plans[std::size_t(r) * parts + part]; };
  if (!detail::plans_agree(plans, parts, G)) return Status::InvalidArgument;
  detail::DeviceGuard restore_device;
  const int t = next_ticket_++;
  // Every rank's queued work first: the senders' data, and the receivers' buffers free.
  for (Local& l : local_) {
    PRIMLAB_PEER_TRY(cudaSetDevice(l.peer.device));
    PRIMLAB_PEER_TRY(l.events.start(t, l.peer.stream, l.transfer));
  }
  for (int r = 0; r < G; ++r) {
    Local& l = local_[std::size_t(r)];
    PRIMLAB_PEER_TRY(cudaSetDevice(l.peer.device));
    for (int s = 0; s < G; ++s)
      if (s != r) PRIMLAB_PEER_TRY(local_[std::size_t(s)].events.wait_ready(t, l.transfer));
    for (int part = 0; part < parts; ++part) {
      const ExchangePlan& p = plan(r, part);
      for (int s = 0; s < G; ++s) {
        const std::size_t bytes = p.send_bytes[s];
        if (bytes == 0) continue;
        const unsigned char* from = static_cast<const unsigned char*>(p.d_send) + p.send_offsets[s];
        unsigned char* to = static_cast<unsigned char*>(plan(s, part).d_recv) + plan(s, part).recv_offsets[r];
        PRIMLAB_PEER_TRY(cudaMemcpyPeerAsync(to, local_[std::size_t(s)].peer.device, from, l.peer.device, bytes, l.transfer));
      }
    }
    PRIMLAB_PEER_TRY(l.events.finish(t, l.transfer));
  }
  *ticket = t;
  return Status::Success;
}

Status PeerExchange::join(int local, int ticket) {
  detail::DeviceGuard restore_device;
  const Local& l = local_[std::size_t(local)];
  PRIMLAB_PEER_TRY(cudaSetDevice(l.peer.device));
  // Every sender's copies into this rank, each sender's transfers in order on its stream.
  for (const Local& sender : local_) PRIMLAB_PEER_TRY(sender.events.join(ticket, l.peer.stream));
  return Status::Success;
}

}  // namespace primlab
