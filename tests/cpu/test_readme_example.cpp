// The README's library example is kernels/examples/api_example.cu verbatim (which CMake builds),
// so the documented API keeps compiling.
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
  const std::string readme = slurp(std::string(PRIMLAB_SOURCE_DIR) + "/README.md");
  ASSERT_FALSE(example.empty());
  ASSERT_FALSE(readme.empty());
  EXPECT_NE(readme.find("```cpp\n" + example + "```"), std::string::npos)
      << "README.md no longer shows kernels/examples/api_example.cu verbatim";
}
