// LoopbackExchange: G virtual ranks on one device (see primlab/exchange.h).
#include <cstring>

#include "primlab/exchange.h"
#include "util/cuda_check.cuh"

namespace primlab {

LoopbackExchange::LoopbackExchange(int ranks, cudaStream_t stream) : ranks_(ranks), stream_(stream) {
  if (cudaGetDevice(&device_) != cudaSuccess) {
    cudaGetLastError();
    device_ = 0;
  }
}

Status LoopbackExchange::all_gather(const std::int64_t* h_local, std::size_t count, std::int64_t* h_all) {
  // Every rank is local, in rank order: the gathered values are the local ones.
  if (count > 0) std::memmove(h_all, h_local, count * std::size_t(ranks_) * sizeof(std::int64_t));
  return Status::Success;
}

Status LoopbackExchange::all_to_all_v(const ExchangePlan* plans, int parts) {
  for (int part = 0; part < parts; ++part) {
    auto plan = [&](int r) -> const ExchangePlan& { return plans[std::size_t(r) * parts + part]; };
    for (int r = 0; r < ranks_; ++r) {
      for (int s = 0; s < ranks_; ++s) {
        const std::size_t bytes = plan(r).send_bytes[s];
        if (bytes != plan(s).recv_bytes[r]) return Status::InvalidArgument;  // the two sides disagree
        if (bytes == 0) continue;
        const unsigned char* from = static_cast<const unsigned char*>(plan(r).d_send) + plan(r).send_offsets[s];
        unsigned char* to = static_cast<unsigned char*>(plan(s).d_recv) + plan(s).recv_offsets[r];
        PRIMLAB_CUDA_TRY(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream_));
      }
    }
  }
  return Status::Success;
}

}  // namespace primlab
