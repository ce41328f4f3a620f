# Includes point one way: library (kernels/) <- lab (kernels/lab/) <- engine (bench/) <- app (app/),
# and inside app/: model/ <- view/ <- interop/, headless/ <- ui/ <- window/, tools/. Nothing outside
# app/ includes GL, glad, GLFW or ImGui; model/ includes none of them either.
# Run: cmake -DROOT=<source folder> -P check_layers.cmake (ctest: layers_include_check, label cpu).
# Prints every include that points up and fails if there is one.
cmake_minimum_required(VERSION 3.16)
if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: pass -DROOT=<source folder>")
endif()

set(app_dirs "model|view|interop|headless|ui|window|tools")
set(gui "glad/|GL/|GLFW/|imgui|backends/|cuda_gl_interop")

# Known upward includes in code that another part of the redesign is moving. Each entry is
# "file: include line"; an entry that no longer matches fails the check, so the list only shrinks.
set(allowed
  "app/headless/perf_render.cpp: #include \"ui/perf_tab.h\""
  "bench/engine/cpu_backend.h: #include \"model/perf_model.h\"")

set(violations "")
set(used "")
# Files under `folder` (but not under `skip`) must not include paths matching `forbidden`.
function(rule folder skip forbidden why)
  file(GLOB_RECURSE files ${ROOT}/${folder}/*.h ${ROOT}/${folder}/*.hpp ${ROOT}/${folder}/*.cpp
       ${ROOT}/${folder}/*.cu ${ROOT}/${folder}/*.cuh)
  foreach(f ${files})
    file(RELATIVE_PATH rel ${ROOT} ${f})
    if(skip AND rel MATCHES "^${skip}/")
      continue()
    endif()
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${forbidden})")
    foreach(line ${lines})
      string(REGEX REPLACE "[ \t]*//.*$" "" line "${line}")
      string(STRIP "${line}" line)
      set(entry "${rel}: ${line}")
      if(entry IN_LIST allowed)
        list(APPEND used "${entry}")
      else()
        list(APPEND violations "${entry}    (${why})")
      endif()
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
  set(used "${used}" PARENT_SCOPE)
endfunction()

rule(kernels kernels/lab "(lab|engine|${app_dirs})/|${gui}" "the library includes only itself")
rule(kernels/lab "" "(engine|${app_dirs})/|${gui}" "the lab includes only itself and the library")
rule(bench "" "(${app_dirs})/|${gui}" "the engine and bench include no app code")
rule(app/model "" "(view|interop|headless|ui|window|tools)/|${gui}" "model/ is plain state")
rule(app/view "" "(interop|headless|ui|window|tools)/|imgui|backends/|GLFW/" "view/ is GL only")
rule(app/interop "" "(headless|ui|window|tools)/|imgui|backends/|GLFW/" "interop/ knows CUDA and GL only")
rule(app/headless "" "(ui|window|tools)/|GLFW/" "headless/ draws with no window and no app UI")
rule(app/ui "" "(window|tools)/|GLFW/" "ui/ runs headless too")
rule(app/tools "" "(window)/|GLFW/" "the tools run with no window system")

foreach(entry ${allowed})
  if(NOT entry IN_LIST used)
    list(APPEND violations "${entry}    (listed as allowed in tests/check_layers.cmake but gone: remove the entry)")
  endif()
endforeach()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes that point up a layer:\n  ${text}")
endif()
message(STATUS "includes point one way")
