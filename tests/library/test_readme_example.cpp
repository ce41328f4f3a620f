// The library example in README.md and kernels/README-library.md is kernels/examples/api_example.cu
// verbatim (which CMake builds), so the documented API keeps compiling.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST(Readme, LibraryExampleIsTheCompiledExample) {
  const std::string example = slurp(std::string(PRIMLAB_SOURCE_DIR) + "/kernels/examples/api_example.cu");
  ASSERT_FALSE(example.empty());
  for (const char* doc : {"/README.md", "/kernels/README-library.md"}) {
    const std::string text = slurp(std::string(PRIMLAB_SOURCE_DIR) + doc);
    ASSERT_FALSE(text.empty()) << doc;
    EXPECT_NE(text.find("```cpp\n" + example + "```"), std::string::npos)
        << doc << " no longer shows kernels/examples/api_example.cu verbatim";
  }
}
