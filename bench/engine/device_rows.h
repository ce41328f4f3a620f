// The device rows of the table (CUDA builds): primlab's fast path, CUB and Thrust.
#pragma once
#include <cuda_runtime_api.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/table.h"

namespace primlab::bench {

// Reduce, scan, select, histogram (engine/rows_reduce_scan.cu).
void add_reduce_scan_rows(Table& table);
// Sorts, their skewed inputs, partition, bitonic and segmented sorts (engine/rows_sort.cu).
void add_sort_rows(Table& table);
// The same CUB and Thrust rows against the newer CCCL of PRIMLAB_CCCL_INCLUDE (impl "cub-3.6",
// "thrust-3.6", ...), and its CUB version; built only with that option (PRIMLAB_NEWER_CCCL).
void add_reduce_scan_rows_newer_cccl(Table& table);
void add_sort_rows_newer_cccl(Table& table);
std::string newer_cub_version();

// A row of `impl`: "primlab" (the library), "cub" or "thrust".
inline Impl device_row(const std::string& primitive, const std::string& impl, std::vector<Type> types) {
  Impl im;
  im.primitive = primitive;
  im.impl = impl;
  im.note = impl == "cub" ? "CUB (the CUDA toolkit's)" : impl == "thrust" ? "Thrust (the CUDA toolkit's)"
                                                       : "primlab's fast path (the library)";
  im.types = std::move(types);
  return im;
}

// A CUDA error as a Status (the error is cleared).
inline Status cuda_status(cudaError_t e) {
  if (e == cudaSuccess) return Status::Success;
  cudaGetLastError();
  return e == cudaErrorMemoryAllocation ? Status::OutOfMemory : Status::CudaError;
}

}  // namespace primlab::bench
