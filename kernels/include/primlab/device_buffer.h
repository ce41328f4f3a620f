// DeviceBuffer<T>: the one owner of device memory outside the library (move-only, RAII).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace primlab {

// Thrown when a device allocation fails; callers at the app edge turn it into a message.
struct DeviceError : std::runtime_error {
  cudaError_t code;
  DeviceError(cudaError_t c, const std::string& what) : std::runtime_error(what), code(c) {}
};

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { resize(count); }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }

  // Reallocates (contents are lost) unless the size is unchanged.
  void resize(std::size_t count) {
    if (count == count_) return;
    reset();
    if (count == 0) return;
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, count * sizeof(T));
    if (e != cudaSuccess) {
      cudaGetLastError();
      throw DeviceError(e, "cudaMalloc of " + std::to_string(count * sizeof(T)) + " bytes failed: " +
                               cudaGetErrorString(e));
    }
    ptr_ = static_cast<T*>(p);
    count_ = count;
  }
  void reset() {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace primlab
