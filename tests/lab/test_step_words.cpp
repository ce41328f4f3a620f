// The lab's words, as `trace` prints them and the app shows them: every row's title, row names,
// step labels, explanations and counters at every config the row's limits give (and the smallest
// shapes, where counts of one appear), checked for the slips a reader stumbles on: "1 threads",
// "conflict=0-way" for a step without shared memory, an empty bit range "bits [0, 0)", and a
// limit "between 64 and 64". Floats print their sign: -nan is not nan.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

#include "lab/catalog.h"
#include "lab/catalog_configs.h"
#include "lab/model/input.h"
#include "lab/model/trace_io.h"

using namespace primlab;

namespace {

// A count of one with a plural noun: "1 threads", "1 blocks".
const std::regex kOnePlural(
    R"((^|[^0-9.\-x*/+=<>])1 (threads|blocks|elements|keys|warps|bins|lanes|words|tiles|GPUs|digits|samples|launches|partitions|rounds|passes|levels|counters|shards|buckets|sums|items|values)\b)");
const std::regex kZeroWay(R"(\b0-way\b)");
const std::regex kEmptyBits(R"(bits \[(\d+), \1\))");
const std::regex kBetweenSame(R"(between (\d+) and \1\b)");

// Every text of a trace that a reader sees, as `trace` prints it: the title, the row names, and
// each step's label, launch, counters and explanation (the values are numbers only).
std::string trace_words(const Trace& t) {
  std::string o = t.title + "\n";
  for (const RowInfo& r : t.rows) o += r.name + "\n";
  for (const Step& st : t.steps)
    o += st.label + "   [" + launch_summary(st.launch) + "; " + counters_summary(st.counters) + "]\n" + st.explain + "\n";
  return o;
}

// Reports each slip once per row: `seen` holds the slips already reported.
void expect_clean(const std::string& text, const std::string& what, std::set<std::string>& seen) {
  std::smatch m;
  auto line_of = [&](const std::smatch& mm) {
    const std::size_t at = std::size_t(mm.position(0));
    const std::size_t b = text.rfind('\n', at), e = text.find('\n', at);
    return text.substr(b == std::string::npos ? 0 : b + 1, (e == std::string::npos ? text.size() : e) - (b + 1)).substr(0, 300);
  };
  for (const std::regex* re : {&kOnePlural, &kZeroWay, &kEmptyBits}) {
    if (!std::regex_search(text, m, *re)) continue;
    // The same slip in another config: the line with its numbers blanked.
    const std::string key = std::regex_replace(line_of(m), std::regex("[0-9]+"), "N");
    if (seen.insert(key).second) ADD_FAILURE() << what << ": \"" << m.str(0) << "\" in: " << line_of(m);
  }
}

TEST(StepWords, NoCountOfOneWithAPluralNoZeroWayConflictNoEmptyBitRange) {
  for (const Algorithm& a : algorithms()) {
    std::vector<test::RowConfig> configs = test::configs_for(a);
    // The smallest shapes: one element, a few elements in blocks of one and two threads, all-equal keys.
    for (int n : {1, 2, 3, 5})
      for (int block : {a.min_block, std::min(a.max_block, std::max(a.min_block, 2))}) {
        test::RowConfig r;
        r.cfg.n = n;
        r.cfg.block = block;
        r.cfg.bins = std::min(16, a.max_bins);
        r.what = std::string(a.name) + " n=" + std::to_string(n) + " block=" + std::to_string(block);
        configs.push_back(r);
      }
    std::set<std::string> seen;
    for (const test::RowConfig& rc : configs) {
      if (rc.cfg.n > 300) continue;  // counts of one live in small shapes; large ones only cost time
      StepConfig cfg = rc.cfg;
      fit_config(a, cfg);
      for (InputKind kind : {InputKind::Random, InputKind::AllEqual}) {
        Trace t;
        const auto in = make_input(kind, cfg.n, cfg.type, cfg.seed);
        if (!build_trace_cpu(a, cfg, in, t).ok()) continue;
        expect_clean(trace_words(t), rc.what, seen);
      }
    }
  }
}

TEST(StepWords, ALimitOfOneValueIsSaidAsThatValue) {
  for (const Algorithm& a : algorithms()) {
    StepConfig cfg;
    cfg.n = 8;
    cfg.block = a.max_block * 2;
    const Result r = validate(a, cfg);
    ASSERT_FALSE(r.ok()) << a.name;
    EXPECT_FALSE(std::regex_search(r.message(), kBetweenSame)) << a.name << ": " << r.message();
    EXPECT_NE(r.message().find(std::to_string(a.max_block)), std::string::npos) << a.name << ": " << r.message();
  }
}

TEST(StepWords, NegativeNaNKeepsItsSign) {
  const std::uint32_t neg_nan = 0xffc00000u, pos_nan = 0x7fc00000u;
  ASSERT_TRUE(std::isnan(word_to_float(neg_nan)));
  EXPECT_EQ(format_word(neg_nan, ElemType::F32), "-nan");
  EXPECT_EQ(format_word(pos_nan, ElemType::F32), "nan");
  EXPECT_EQ(format_word(0xffffffffu, ElemType::F32), "-nan");
  EXPECT_EQ(format_word(0x7fffffffu, ElemType::F32), "nan");
  // The float sort's specials: -NaN sorts first, and says so.
  const Algorithm& bitonic = *find_algorithm("bitonic-sort");
  StepConfig cfg;
  cfg.type = ElemType::F32;
  cfg.block = 4;
  const std::vector<std::uint32_t> in = {to_word(1.f), neg_nan, to_word(-INFINITY), pos_nan, to_word(-0.f)};
  cfg.n = std::int32_t(in.size());
  Trace t;
  ASSERT_TRUE(build_trace_cpu(bitonic, cfg, in, t).ok());
  std::ostringstream o;
  write_trace_text(o, t, "cpu", false);
  const std::string text = o.str();
  const std::string last = text.substr(text.rfind("step "));
  EXPECT_NE(last.find(": -nan -inf -0 1 nan"), std::string::npos) << last;
}

TEST(StepWords, CountersOfAStepWithoutSharedMemorySayNoConflict) {
  Counters c;
  EXPECT_EQ(counters_summary(c).find("0-way"), std::string::npos) << counters_summary(c);
  c.shared_accesses = 4;
  c.bank_conflict = 1;
  EXPECT_NE(counters_summary(c).find("conflict=1-way"), std::string::npos) << counters_summary(c);
}

}  // namespace
