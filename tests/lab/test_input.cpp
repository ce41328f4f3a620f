// Input parsing: typed lists, sizes and distributions, with clear errors on bad input.
#include <gtest/gtest.h>

#include "lab/model/input.h"

using namespace primlab;

TEST(Input, ParsesListsWithSpacesAndCommas) {
  std::vector<std::uint32_t> v;
  const Result r = parse_input_list("3 1, 7  -2", ElemType::I32, v);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(v, (std::vector<std::uint32_t>{3, 1, 7, std::uint32_t(-2)}));
}

TEST(Input, RejectsNonNumbersAndOutOfRange) {
  std::vector<std::uint32_t> v{42};
  Result r = parse_input_list("1 2 x3", ElemType::I32, v);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("x3"), std::string::npos);
  r = parse_input_list("2147483648", ElemType::I32, v);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message().find("range"), std::string::npos);
  EXPECT_FALSE(parse_input_list("   ", ElemType::I32, v).ok());
  EXPECT_EQ(v, std::vector<std::uint32_t>{42});  // untouched on error
}

TEST(Input, FloatsKeepSpecialValues) {
  std::vector<std::uint32_t> v;
  const Result r = parse_input_list("-0.0 inf -inf nan 1.5", ElemType::F32, v);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(v[0], 0x80000000u);
  EXPECT_EQ(format_word(v[1], ElemType::F32), "inf");
  EXPECT_EQ(format_word(v[3], ElemType::F32), "nan");
}

TEST(Input, ParsesCounts) {
  std::int64_t n = 0;
  EXPECT_TRUE(parse_count("2^20", n).ok());
  EXPECT_EQ(n, 1 << 20);
  EXPECT_TRUE(parse_count("1<<10", n).ok());
  EXPECT_EQ(n, 1024);
  EXPECT_TRUE(parse_count("-3", n).ok());
  EXPECT_EQ(n, -3);
  EXPECT_FALSE(parse_count("abc", n).ok());
  EXPECT_FALSE(parse_count("3^4", n).ok());
  EXPECT_FALSE(parse_count("2^99", n).ok());
}

TEST(Input, DistributionsHaveTheirShape) {
  auto s = make_input(InputKind::Sorted, 100, ElemType::I32, 3);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  auto e = make_input(InputKind::AllEqual, 10, ElemType::I32, 3);
  EXPECT_EQ(std::count(e.begin(), e.end(), e[0]), 10);
  EXPECT_EQ(make_input(InputKind::Random, 50, ElemType::I32, 9), make_input(InputKind::Random, 50, ElemType::I32, 9));
}

TEST(Trace, BankConflictDegree) {
  std::int32_t same_bank[4] = {0, 32, 64, 96};
  EXPECT_EQ(bank_conflict_degree(same_bank, 4), 4);
  std::int32_t broadcast[4] = {5, 5, 5, 5};
  EXPECT_EQ(bank_conflict_degree(broadcast, 4), 1);
  std::int32_t idle[2] = {-1, -1};
  EXPECT_EQ(bank_conflict_degree(idle, 2), 0);
}
