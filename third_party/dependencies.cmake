# Finds or generates primlab's dependencies from Debian's packages; no third-party source is copied here.
# Each is looked up only when a part that needs it is built: the library alone needs only CUDA.
#   lab (app, tests, bench, Python): json - nlohmann-json3-dev;  Threads
#   app, bench and Python: CLI11 - libcli11-dev (every tool's command line, bench/cli/; the step
#        options of app/model/step_choice, which the Python package shares)
#   headless view (app; Python's step.png() when found): glad - python3-glad, run at configure time
#        (an OpenGL 3.3 core loader);  EGL - libegl-dev;  stb - libstb-dev (PNG)
#   app: imgui - libimgui-dev (core + GLFW and OpenGL3 backends in libimgui.a), through pkg-config
#        glfw  - libglfw3-dev;  gif - libgif-dev
#   tests: gtest - libgtest-dev
# Sets PRIMLAB_HAVE_VIEW when the headless view (app/view, app/headless) can be built.
if(PRIMLAB_WITH_LAB)
  find_package(Threads REQUIRED)
  find_package(nlohmann_json 3 REQUIRED)
endif()

if(PRIMLAB_WITH_TESTS)
  find_package(GTest REQUIRED)
endif()

if(PRIMLAB_WITH_APP OR PRIMLAB_WITH_BENCH OR PRIMLAB_WITH_PYTHON)
  find_package(CLI11 REQUIRED)
endif()

set(PRIMLAB_HAVE_VIEW OFF)
if(NOT PRIMLAB_WITH_APP AND NOT PRIMLAB_WITH_PYTHON)
  return()
endif()

# [SECTION] The headless view: required by the app; the Python package draws step.png() with it
# when its three packages are there, and says so when they are not.
set(_view_required)
if(PRIMLAB_WITH_APP)
  set(_view_required REQUIRED)
endif()
find_program(PRIMLAB_GLAD glad ${_view_required})
find_library(PRIMLAB_EGL_LIB EGL ${_view_required})
find_path(PRIMLAB_EGL_INCLUDE EGL/egl.h ${_view_required})
find_library(PRIMLAB_STB_LIB NAMES libstb.a stb ${_view_required})
find_path(PRIMLAB_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb ${_view_required})
if(NOT PRIMLAB_GLAD OR NOT PRIMLAB_EGL_LIB OR NOT PRIMLAB_EGL_INCLUDE OR NOT PRIMLAB_STB_LIB OR NOT PRIMLAB_STB_INCLUDE)
  message(STATUS "primlab: python3-glad, libegl-dev or libstb-dev missing - the Python package is built "
                 "without step.png()")
  return()
endif()
set(PRIMLAB_HAVE_VIEW ON)

# glad: generated into the build tree at configure time.
set(PRIMLAB_GLAD_DIR ${PROJECT_BINARY_DIR}/glad)
if(NOT EXISTS ${PRIMLAB_GLAD_DIR}/src/gl.c)
  execute_process(COMMAND ${PRIMLAB_GLAD} --quiet --reproducible --api gl:core=3.3
                          --out-path ${PRIMLAB_GLAD_DIR} c
                  RESULT_VARIABLE _glad_rc)
  if(NOT _glad_rc EQUAL 0)
    message(FATAL_ERROR "glad failed to generate the OpenGL loader (python3-glad installed?)")
  endif()
endif()
add_library(glad STATIC ${PRIMLAB_GLAD_DIR}/src/gl.c)
target_include_directories(glad SYSTEM PUBLIC ${PRIMLAB_GLAD_DIR}/include)
set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON)

# EGL for headless rendering (surfaceless Mesa or an NVIDIA device).
add_library(primlab_egl INTERFACE)
target_link_libraries(primlab_egl INTERFACE ${PRIMLAB_EGL_LIB})
target_include_directories(primlab_egl SYSTEM INTERFACE ${PRIMLAB_EGL_INCLUDE})

# stb (PNG writing), static.
add_library(primlab_stb INTERFACE)
target_include_directories(primlab_stb SYSTEM INTERFACE ${PRIMLAB_STB_INCLUDE})
target_link_libraries(primlab_stb INTERFACE ${PRIMLAB_STB_LIB})

if(NOT PRIMLAB_WITH_APP)
  return()
endif()

# [SECTION] Dear ImGui (core and backends in Debian's static libimgui.a, which needs stb).
# Linked statically and without pkg-config's -lglfw, so that the headless tools carry no GLFW
# dependency (a GPU server has no GLFW); the app adds glfw itself.
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED imgui)
find_library(PRIMLAB_IMGUI_LIB NAMES libimgui.a imgui REQUIRED)
find_library(PRIMLAB_DL_LIB dl)
add_library(primlab_imgui INTERFACE)
target_include_directories(primlab_imgui SYSTEM INTERFACE ${IMGUI_INCLUDE_DIRS})
target_link_libraries(primlab_imgui INTERFACE ${PRIMLAB_IMGUI_LIB} ${PRIMLAB_STB_LIB} ${PRIMLAB_DL_LIB})

# [SECTION] giflib (animated GIF export), static.
find_path(PRIMLAB_GIF_INCLUDE gif_lib.h REQUIRED)
find_library(PRIMLAB_GIF_LIB NAMES libgif.a gif REQUIRED)
add_library(primlab_gif INTERFACE)
target_include_directories(primlab_gif SYSTEM INTERFACE ${PRIMLAB_GIF_INCLUDE})
target_link_libraries(primlab_gif INTERFACE ${PRIMLAB_GIF_LIB})

find_package(glfw3 3.3 REQUIRED)
