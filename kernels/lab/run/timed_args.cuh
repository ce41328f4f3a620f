// Unpacks the catalog's TimedArgs for a timed form (<algo>.cu): the element type as a
// C++ type, the block and items with the catalog's defaults, the workspace and the stream.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "lab/model/forms.h"
#include "primlab/status.h"

namespace primlab::timed {

template <class T> constexpr const char* type_name();
template <> constexpr const char* type_name<std::int32_t>() { return "i32"; }
template <> constexpr const char* type_name<std::uint32_t>() { return "u32"; }
template <> constexpr const char* type_name<float>() { return "f32"; }
template <> constexpr const char* type_name<std::uint8_t>() { return "u8"; }

// Calls f(T{}) for the one of Ts named by a.type; `unknown` when a.type names none of them.
template <class... Ts, class R, class F>
R on_type(const TimedArgs& a, R unknown, F&& f) {
  R r = unknown;
  (void)((a.type == type_name<Ts>() ? (r = f(Ts{}), true) : false) || ...);
  return r;
}

inline int block_of(const TimedArgs& a) { return a.block > 0 ? a.block : kTimedDefaultBlock; }
inline int items_of(const TimedArgs& a) { return a.items > 0 ? a.items : kTimedDefaultItems; }
inline Workspace workspace_of(const TimedArgs& a) { return {a.d_ws, a.ws_bytes}; }
inline cudaStream_t stream_of(const TimedArgs& a) { return static_cast<cudaStream_t>(a.stream); }

}  // namespace primlab::timed
