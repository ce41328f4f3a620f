// gtest check of a lab Result: EXPECT_TRUE(ok(r)) prints the failure's message.
#pragma once
#include <gtest/gtest.h>

#include "lab/model/result.h"

inline ::testing::AssertionResult ok(const primlab::Result& r) {
  if (r.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << r.message();
}
