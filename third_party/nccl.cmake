# NCCL for the multi-GPU primitives' transport (primlab_nccl) and their tests and bench: optional.
# Found from -DPRIMLAB_NCCL_ROOT=<dir with include/nccl.h and lib/libnccl.so*> (for example PyPI's
# nvidia-nccl-cu13 wheel, unpacked: <wheel>/nvidia/nccl), $NCCL_ROOT, or the system paths.
# Sets PRIMLAB_HAVE_NCCL and the imported target PRIMLAB::NCCL.
set(PRIMLAB_NCCL_ROOT "" CACHE PATH "Where NCCL's include/nccl.h and lib/libnccl.so.2 are (optional)")
find_path(PRIMLAB_NCCL_INCLUDE_DIR nccl.h HINTS ${PRIMLAB_NCCL_ROOT}/include $ENV{NCCL_ROOT}/include)
find_library(PRIMLAB_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${PRIMLAB_NCCL_ROOT}/lib $ENV{NCCL_ROOT}/lib)
set(PRIMLAB_HAVE_NCCL OFF)
if(PRIMLAB_NCCL_INCLUDE_DIR AND PRIMLAB_NCCL_LIBRARY)
  set(PRIMLAB_HAVE_NCCL ON)
  if(NOT TARGET PRIMLAB::NCCL)
    add_library(PRIMLAB::NCCL SHARED IMPORTED)
    set_target_properties(PRIMLAB::NCCL PROPERTIES IMPORTED_LOCATION ${PRIMLAB_NCCL_LIBRARY}
                                                   INTERFACE_INCLUDE_DIRECTORIES ${PRIMLAB_NCCL_INCLUDE_DIR})
  endif()
  message(STATUS "primlab: NCCL ${PRIMLAB_NCCL_LIBRARY} - the multi-GPU transport, tests and bench are built")
else()
  message(STATUS "primlab: NCCL not found (set PRIMLAB_NCCL_ROOT) - the multi-GPU transport, its tests and bench "
                 "are skipped; the multi-GPU primitives still build and run over the loopback")
endif()
