// Status strings are distinct and non-empty.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "primlab/status.h"

TEST(Status, StringsAreDistinct) {
  std::set<std::string> seen;
  for (int i = 0; i <= static_cast<int>(primlab::Status::CommError); ++i)
    seen.insert(primlab::status_string(static_cast<primlab::Status>(i)));
  EXPECT_EQ(seen.size(), 9u);
}
