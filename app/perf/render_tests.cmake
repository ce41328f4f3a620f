# The Performance tab's headless rendering test (label render), included from
# tests/render/CMakeLists.txt: the tab with a CPU sweep's results, drawn through EGL.
if(TARGET primlab_perf_ui)
  add_executable(primlab_perf_render_tests ${PROJECT_SOURCE_DIR}/tests/render/test_perf_render.cpp
                 ${PROJECT_SOURCE_DIR}/app/headless/egl_context.cpp)
  target_link_libraries(primlab_perf_render_tests PRIVATE primlab_perf_ui primlab_ui primlab_egl GTest::gtest GTest::gtest_main)
  add_test(NAME render_perf COMMAND primlab_perf_render_tests)
  set_tests_properties(render_perf PROPERTIES LABELS render)
endif()
