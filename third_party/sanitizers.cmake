# PRIMLAB_SANITIZE: sanitizers for the host code, a list such as "address;undefined" (empty: none).
# They instrument the C and C++ compiles and links of every target defined after this file
# (not nvcc's device or host compiles); CI runs the cpu-labelled tests in a CPU-only build with
# them. A failed check aborts (no recovery), so that a test cannot pass over a report.
set(PRIMLAB_SANITIZE "" CACHE STRING "Sanitizers for the host C/C++ code, e.g. address;undefined (empty: none)")
if(PRIMLAB_SANITIZE)
  list(JOIN PRIMLAB_SANITIZE "," _primlab_sanitize)
  set(_primlab_sanitize_flags -fsanitize=${_primlab_sanitize} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_primlab_sanitize_flags}>")
  add_link_options("$<$<LINK_LANGUAGE:C,CXX>:-fsanitize=${_primlab_sanitize}>")
  message(STATUS "primlab: sanitizers ${_primlab_sanitize} on the host C/C++ code")
endif()
