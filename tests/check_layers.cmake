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

set(violations "")
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
      list(APPEND violations "${rel}: ${line}    (${why})")
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

rule(kernels kernels/lab "(lab|engine|${app_dirs})/|${gui}" "the library includes only itself")
# Inside the library, CUB's layers: device -> agent -> block -> warp, thread (util, tuning and the
# public API below them all).
rule(kernels/agent "" "device/" "an agent does not call the dispatch above it")
rule(kernels/block "" "(device|agent)/" "a block-wide helper knows no kernel or dispatch")
rule(kernels/warp "" "(device|agent|block)/" "a warp-wide helper knows no block")
rule(kernels/thread "" "(device|agent|block|warp)/" "a thread-level helper knows no warp")
rule(kernels/util "" "(device|agent|block|warp|thread|tuning)/" "utilities sit below every layer")
rule(kernels/tuning "" "(device|agent|block|warp|thread)/" "tuning structs hold numbers, no code")
rule(kernels/lab "" "(engine|${app_dirs})/|${gui}" "the lab includes only itself and the library")
# Inside the lab: model -> run -> algorithms -> catalog. An algorithm may look another row up in
# the catalog (compaction finds its scan there); the catalog's table declares the rows' functions
# and includes no algorithm.
rule(kernels/lab/model "" "lab/(run|algorithms|catalog)" "the trace model knows no runner, algorithm or catalog")
rule(kernels/lab/run "" "lab/(algorithms|catalog)" "the runners know no algorithm and no catalog")
file(GLOB catalog_files ${ROOT}/kernels/lab/catalog*)
foreach(f ${catalog_files})
  file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"lab/algorithms/")
  foreach(line ${lines})
    list(APPEND violations "kernels/lab/${f}: ${line}    (the catalog declares its rows' functions, it includes no algorithm)")
  endforeach()
endforeach()
rule(bench "" "(${app_dirs})/|${gui}" "the engine and bench include no app code")
rule(app/model "" "(view|interop|headless|ui|window|tools)/|${gui}" "model/ is plain state")
rule(app/view "" "(interop|headless|ui|window|tools)/|imgui|backends/|GLFW/" "view/ is GL only")
rule(app/interop "" "(headless|ui|window|tools)/|imgui|backends/|GLFW/" "interop/ knows CUDA and GL only")
rule(app/headless "" "(ui|window|tools)/|GLFW/" "headless/ draws with no window and no app UI")
rule(app/ui "" "(window|tools)/|GLFW/" "ui/ runs headless too")
rule(app/tools "" "(window)/|GLFW/" "the tools run with no window system")

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes that point up a layer:\n  ${text}")
endif()
message(STATUS "includes point one way")
