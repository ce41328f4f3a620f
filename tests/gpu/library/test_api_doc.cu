// The API example in kernels/README-library.md must be kernels/examples/api_example.cu verbatim.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string slurp(const std::string& rel) {
  std::string root = __FILE__;  // <root>/tests/gpu/library/test_api_doc.cu
  root = root.substr(0, root.rfind("/tests/gpu/library/"));
  for (const std::string& p : {root + "/" + rel, rel}) {  // the source tree, else the cwd
    std::ifstream f(p);
    if (f) {
      std::stringstream s;
      s << f.rdbuf();
      return s.str();
    }
  }
  return "";
}

}  // namespace

TEST(ApiDoc, ReadmeExampleMatchesTheCompiledExample) {
  const std::string example = slurp("kernels/examples/api_example.cu");
  const std::string readme = slurp("kernels/README-library.md");
  if (example.empty() || readme.empty()) GTEST_SKIP() << "source tree not found";
  EXPECT_NE(readme.find("```cpp\n" + example + "```"), std::string::npos)
      << "kernels/README-library.md no longer shows kernels/examples/api_example.cu verbatim";
}
