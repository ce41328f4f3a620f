// The tools' one command-line grammar (bench/cli/grammar.h): the sizes every tool reads, the type
// names, the renamed options' help and the --list printer.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/grammar.h"

using namespace primlab;

namespace {

std::vector<std::int64_t> sizes(const std::string& text, int factor = 2, std::int64_t lo = 1,
                                std::int64_t hi = std::int64_t(1) << 34) {
  std::vector<std::int64_t> out;
  const Result r = cli::parse_sizes("--n", text, lo, hi, factor, out);
  EXPECT_TRUE(r.ok()) << text << ": " << r.message();
  return out;
}

std::string size_error(const std::string& text, std::int64_t lo = 1, std::int64_t hi = std::int64_t(1) << 34) {
  std::vector<std::int64_t> out = {7};
  const Result r = cli::parse_sizes("--n", text, lo, hi, 2, out);
  EXPECT_FALSE(r.ok()) << text;
  EXPECT_EQ(out, std::vector<std::int64_t>{7}) << text << ": the output is kept on a failure";
  return r.ok() ? "" : r.message();
}

}  // namespace

TEST(CliGrammar, SizesArePlainNumbersPowersListsAndRanges) {
  EXPECT_EQ(sizes("4096"), (std::vector<std::int64_t>{4096}));
  EXPECT_EQ(sizes("2^12"), (std::vector<std::int64_t>{4096}));
  EXPECT_EQ(sizes("1<<12"), (std::vector<std::int64_t>{4096}));
  EXPECT_EQ(sizes("2^10..2^13"), (std::vector<std::int64_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(sizes("2^4..2^9", 4), (std::vector<std::int64_t>{16, 64, 256, 512}));  // the end always included
  EXPECT_EQ(sizes("1000..5000"), (std::vector<std::int64_t>{1000, 2000, 4000, 5000}));
  EXPECT_EQ(sizes("1000,2^10,1<<10,16"), (std::vector<std::int64_t>{1000, 1024, 16}));  // each once, as given
  EXPECT_EQ(sizes("2^4..2^4"), (std::vector<std::int64_t>{16}));
  EXPECT_EQ(sizes("2^16,2^20..2^21"), (std::vector<std::int64_t>{65536, 1 << 20, 1 << 21}));
  EXPECT_EQ(sizes("0", 2, 0), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(sizes("2^34..2^34"), (std::vector<std::int64_t>{std::int64_t(1) << 34}));
}

TEST(CliGrammar, EveryBadSizeIsOneLineNamingTheOptionAndThePart) {
  EXPECT_EQ(size_error("2^35"), "--n: '2^35' is out of range (1 to 2^34)");
  EXPECT_EQ(size_error("0"), "--n: '0' is out of range (1 to 2^34)");
  EXPECT_EQ(size_error("2^6..2^4"), "--n: the range '2^6..2^4' runs backwards");
  EXPECT_EQ(size_error("0..2^4", 0), "--n: '0' is out of range (1 to 2^34)");  // a range starts above 0
  EXPECT_EQ(size_error("%s%n"), "--n: '%s%n' is not a size (a number, 2^K or 1<<K)");
  EXPECT_EQ(size_error("2^4.."), "--n: '' is not a size (a number, 2^K or 1<<K)");
  EXPECT_EQ(size_error("3^4"), "--n: '3^4' is not a size (a number, 2^K or 1<<K)");
  EXPECT_EQ(size_error("16,x"), "--n: 'x' is not a size (a number, 2^K or 1<<K)");
  EXPECT_EQ(size_error("\xff\xfe"), "--n: '\xff\xfe' is not a size (a number, 2^K or 1<<K)");
  EXPECT_EQ(size_error(""), "--n: no size given (e.g. 4096, 2^20, 2^10..2^28 or 2^16,2^20)");
  EXPECT_EQ(size_error(","), "--n: no size given (e.g. 4096, 2^20, 2^10..2^28 or 2^16,2^20)");
  EXPECT_FALSE(size_error("2^99999999999").empty());
  EXPECT_FALSE(size_error("99999999999999999999").empty());
  std::int64_t v = 0;
  const Result r = cli::parse_size("--block", "1025", 0, 1024, v);
  EXPECT_EQ(r.message(), "--block: '1025' is out of range (0 to 1024)");
}

TEST(CliGrammar, TypesTakeTheEngineNamesAndTheStepToolsOldNames) {
  bench::Type t;
  ASSERT_TRUE(cli::parse_type_name("u32", &t));
  EXPECT_EQ(t, bench::Type::u32);
  ASSERT_TRUE(cli::parse_type_name("uint", &t));
  EXPECT_EQ(t, bench::Type::u32);
  ASSERT_TRUE(cli::parse_type_name("int", &t));
  EXPECT_EQ(t, bench::Type::i32);
  ASSERT_TRUE(cli::parse_type_name("float", &t));
  EXPECT_EQ(t, bench::Type::f32);
  EXPECT_FALSE(cli::parse_type_name("u16", &t));
  std::vector<bench::Type> types;
  EXPECT_TRUE(cli::parse_types("--type", "u32,f64", types).ok());
  EXPECT_EQ(types, (std::vector<bench::Type>{bench::Type::u32, bench::Type::f64}));
  EXPECT_EQ(cli::parse_types("--type", "u32,", types).message(), "--type: 'u32,' is not a list of types (e.g. u32 or u32,f32)");
  EXPECT_EQ(cli::parse_types("--type", "u32,%n", types).message(),
            "--type: unknown type '%n' (u8, i32, u32, f32, i64, f64, u64)");
}

TEST(CliGrammar, ARenamedOptionTakesBothNamesAndItsHelpSaysWhichIsOld) {
  CLI::App app{"test"};
  std::string prim;
  cli::add_renamed_option(app, "--prim,--algo", prim, "primitives");
  const char* argv[] = {"test", "--algo", "reduce_sum"};
  ASSERT_FALSE(cli::parse(app, "test", 3, const_cast<char**>(argv)).has_value());
  EXPECT_EQ(prim, "reduce_sum");
  EXPECT_NE(app.help().find("primitives (--algo: the old name, kept for one release)"), std::string::npos) << app.help();
}

TEST(CliGrammar, TheListPrinterAlignsColumnsUnderTitles) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  cli::print_list(f, {{"algorithms (--algo NAME)", {{"scan-naive", "[scan]", "Hillis-Steele"}, {"reduce1", "[reduce]", "tree"}}},
                      {"presets (--preset NAME)", {{"blelloch-8", "eight numbers"}}}});
  std::rewind(f);
  std::string text;
  char buf[256];
  while (std::fgets(buf, sizeof buf, f)) text += buf;
  std::fclose(f);
  EXPECT_EQ(text,
            "algorithms (--algo NAME):\n"
            "  scan-naive [scan]   Hillis-Steele\n"
            "  reduce1    [reduce] tree\n"
            "\n"
            "presets (--preset NAME):\n"
            "  blelloch-8 eight numbers\n");
}

TEST(CliGrammar, TheImplementationsListNamesWhereEachRunsAndWhatItTakes) {
  bench::Table table;
  bench::Impl a;
  a.primitive = "scan_exclusive";
  a.impl = "scan-shared";
  a.types = {bench::Type::u32, bench::Type::f32};
  a.takes_block = true;
  bench::Impl b = a;
  b.impl = "cpu";
  b.on_host = true;
  b.takes_block = false;
  table = {a, b};
  const cli::ListSection list = cli::implementations_list(table);
  EXPECT_EQ(list.title, "implementations (--prim PRIMITIVE --impl IMPL --type TYPE)");
  ASSERT_EQ(list.rows.size(), 2u);
  EXPECT_EQ(list.rows[0], (std::vector<std::string>{"scan_exclusive", "scan-shared", "GPU", "u32,f32", "--block"}));
  EXPECT_EQ(list.rows[1], (std::vector<std::string>{"scan_exclusive", "cpu", "CPU", "u32,f32", ""}));
}
