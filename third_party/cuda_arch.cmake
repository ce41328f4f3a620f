# Picks CMAKE_CUDA_ARCHITECTURES: the user's (or $CUDAARCHS), else the GPUs present, else a portable list.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  find_program(PRIMLAB_NVIDIA_SMI nvidia-smi)
  set(_archs "")
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
    set(_archs 75 80 90)   # portable: Turing, Ampere, Hopper
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${_archs} CACHE STRING "CUDA architectures")
endif()
