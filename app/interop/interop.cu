// The only file that knows both CUDA and OpenGL: registers the trace's GL buffer objects with
// CUDA, maps them, lets the traced CUDA stepper write every step into them, and computes the
// per-row value ranges on the device. The array never makes a host round trip.
#include "view/gl.h"  // glad before cuda_gl_interop.h, which includes GL/gl.h

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <cfloat>

#include "interop/interop.h"
#include "lab/run/backend.h"
#include "primlab/device_buffer.h"

namespace primlab::interop {
namespace {

// One block per row: min and max over every step of the row's meaningful prefix.
__global__ void row_ranges(const std::uint32_t* values, int steps, int rows, int width, const int* lengths,
                           const int* types, float2* out) {
  const int r = blockIdx.x;
  const int len = lengths[r];
  float lo = FLT_MAX, hi = -FLT_MAX;
  for (long long k = threadIdx.x; k < (long long)steps * len; k += blockDim.x) {
    const int s = int(k / len), i = int(k % len);
    const std::uint32_t w = values[((long long)s * rows + r) * width + i];
    const float f = types[r] == 1 ? __uint_as_float(w) : types[r] == 2 ? float(w) : float(int(w));
    if (isfinite(f)) {
      lo = fminf(lo, f);
      hi = fmaxf(hi, f);
    }
  }
  __shared__ float slo[256], shi[256];
  slo[threadIdx.x] = lo;
  shi[threadIdx.x] = hi;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) {
      slo[threadIdx.x] = fminf(slo[threadIdx.x], slo[threadIdx.x + o]);
      shi[threadIdx.x] = fmaxf(shi[threadIdx.x], shi[threadIdx.x + o]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[r] = slo[0] > shi[0] ? make_float2(0.f, 1.f) : make_float2(slo[0], shi[0]);
}

// Registration and mapping of one GL buffer for the duration of a fill; result() says whether
// the mapping took.
class Mapped {
 public:
  explicit Mapped(GLuint buffer) {
    cudaError_t e = cudaGraphicsGLRegisterBuffer(&res_, buffer, cudaGraphicsRegisterFlagsWriteDiscard);
    if (e == cudaSuccess) e = cudaGraphicsMapResources(1, &res_);
    if (e == cudaSuccess) {
      mapped_ = true;
      e = cudaGraphicsResourceGetMappedPointer(&ptr_, &bytes_, res_);
    }
    if (e != cudaSuccess) cudaGetLastError();
    error_ = e;
  }
  ~Mapped() {
    if (mapped_) cudaGraphicsUnmapResources(1, &res_);
    if (res_) cudaGraphicsUnregisterResource(res_);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  void* ptr() const { return ptr_; }
  Result result() const {
    if (error_ == cudaSuccess) return {};
    return Result::failure(std::string("CUDA-OpenGL interop: ") + cudaGetErrorString(error_));
  }

 private:
  cudaError_t error_ = cudaSuccess;
  cudaGraphicsResource_t res_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  bool mapped_ = false;
};

}  // namespace

bool cuda_available() { return backend().cuda; }

Result fill_cuda(const Algorithm& a, const StepConfig& cfg, const std::vector<std::uint32_t>& input, Trace& meta,
                 view::TraceBuffers& buf) {
  if (!a.run_cuda) return Result::failure(std::string(a.name) + " has no CUDA stepper");
  if (Result r = plan_trace(a, cfg, input, meta); !r.ok()) return r;
  // The host keeps metadata only; the values and ops live in the GL buffers.
  meta.values = {};
  meta.ops = {};
  if (Result r = buf.allocate(meta); !r.ok()) return r;
  glFinish();  // the buffers exist before CUDA maps them
  std::vector<view::RowRange> ranges(meta.rows.size());
  {
    Mapped values(buf.values_buffer());
    if (Result r = values.result(); !r.ok()) return r;
    Mapped ops(buf.ops_buffer());
    if (Result r = ops.result(); !r.ok()) return r;
    if (Result r = a.run_cuda(cfg, input, meta, {static_cast<std::uint32_t*>(values.ptr()), static_cast<Op*>(ops.ptr())});
        !r.ok())
      return r;
    try {
      const std::size_t rows = meta.rows.size();
      std::vector<int> lengths(rows), types(rows);
      for (std::size_t r = 0; r < rows; ++r) {
        const RowInfo& ri = meta.rows[r];
        lengths[r] = ri.element_space ? std::min(meta.n, ri.length) : ri.length;
        types[r] = ri.type == ElemType::F32 ? 1 : ri.type == ElemType::U32 ? 2 : 0;
      }
      DeviceBuffer<int> d_len(rows), d_types(rows);
      DeviceBuffer<float2> d_out(rows);
      cudaMemcpy(d_len.get(), lengths.data(), d_len.bytes(), cudaMemcpyHostToDevice);
      cudaMemcpy(d_types.get(), types.data(), d_types.bytes(), cudaMemcpyHostToDevice);
      row_ranges<<<int(rows), 256>>>(static_cast<const std::uint32_t*>(values.ptr()), int(meta.steps.size()), int(rows),
                                meta.width, d_len.get(), d_types.get(), d_out.get());
      std::vector<float2> h(rows);
      cudaError_t e = cudaMemcpy(h.data(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) {
        cudaGetLastError();
        return Result::failure(std::string("computing the value ranges: ") + cudaGetErrorString(e));
      }
      for (std::size_t r = 0; r < rows; ++r) ranges[r] = {h[r].x, h[r].y};
    } catch (const DeviceError& e) {
      return Result::failure(e.what());
    }
  }
  buf.ranges = ranges;
  return {};
}

}  // namespace primlab::interop
