// Every Status has its own message: the codes from Success up run without a gap to the last one
// status.h names, each with a distinct non-empty string, and no code past it has one.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "primlab/status.h"

TEST(Status, EveryCodeHasItsOwnMessage) {
  const std::string unknown = primlab::status_string(static_cast<primlab::Status>(-1));
  std::set<std::string> seen;
  int known = 0;
  for (int i = 0; i < 64; ++i) {
    const std::string s = primlab::status_string(static_cast<primlab::Status>(i));
    if (s == unknown) continue;
    EXPECT_EQ(i, known) << "code " << i << " has a message but code " << known << " has none";
    EXPECT_FALSE(s.empty()) << "code " << i;
    EXPECT_TRUE(seen.insert(s).second) << "code " << i << " repeats \"" << s << "\"";
    ++known;
  }
  EXPECT_EQ(known, static_cast<int>(primlab::Status::CommError) + 1);
}
