# Picks CMAKE_CUDA_ARCHITECTURES: the user's (-DCMAKE_CUDA_ARCHITECTURES or $CUDAARCHS, e.g. `native`
# or `90`), else the GPUs present, else every architecture CUDA 13 supports from Turing on: SASS
# for sm_75 (T4, RTX 20), sm_80 (A100), sm_86 (RTX 30), sm_89 (L4, RTX 40) and sm_90 (H100, H200),
# plus compute_90 PTX, which the driver compiles for newer GPUs (Blackwell's sm_100 and sm_120).
# The Python package takes that list, not the GPU's (unless CUDAARCHS says otherwise): a wheel goes to
# other machines than the one that builds it.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(_archs "")
  if(NOT PRIMLAB_WITH_PYTHON)
    find_program(PRIMLAB_NVIDIA_SMI nvidia-smi)
  endif()
  if(PRIMLAB_NVIDIA_SMI)
    execute_process(COMMAND ${PRIMLAB_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _caps RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_rc EQUAL 0 AND _caps)
      string(REPLACE "." "" _caps "${_caps}")
      string(REPLACE "\n" ";" _archs "${_caps}")
      list(REMOVE_DUPLICATES _archs)
    endif()
  endif()
  if(NOT _archs)
    set(_archs 75-real 80-real 86-real 89-real 90)
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${_archs} CACHE STRING "CUDA architectures")
endif()
