// The Step tab's code listings are cut from the kernel sources by markers (lab/model/listing.h):
// the markers are well formed, every planned trace shows only marked source text, every step
// highlights a line tagged for what it does, and every tag is highlighted by some step.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "lab/catalog.h"
#include "lab/model/input.h"
#include "lab/model/listing.h"

using namespace primlab;

namespace {

// A tag names the phase of the steps that highlight it, optionally with a qualifier in
// parentheses that tells apart two lines of one phase: "load (merge)" is a "load" step's line.
std::string tag_phase(const std::string& tag) { return tag.substr(0, tag.find(" (")); }
// "scan: up-sweep" (a step of a scan spliced into the compaction) is an "up-sweep" step.
std::string own_phase(const std::string& phase) {
  const std::size_t colon = phase.rfind(": ");
  return colon == std::string::npos ? phase : phase.substr(colon + 2);
}

// A trace's code as the listings it is made of: the listing at each line and the line within it.
struct Placed {
  const listing::Listing* listing = nullptr;
  int line = -1;
};

// Splits t.code into whole marked listings, longest match first, into `at`; a failure when a line
// belongs to no listing.
Result place(const Trace& t, std::vector<Placed>& at) {
  at.clear();
  while (at.size() < t.code.size()) {
    const listing::Listing* best = nullptr;
    for (const listing::Listing& l : listing::all()) {
      const std::size_t o = at.size();
      if (o + l.lines.size() > t.code.size() || (best && l.lines.size() <= best->lines.size())) continue;
      if (std::equal(l.lines.begin(), l.lines.end(), t.code.begin() + std::ptrdiff_t(o))) best = &l;
    }
    if (!best)
      return Result::failure("code line " + std::to_string(at.size()) + " is no marked source: " + t.code[at.size()]);
    for (int k = 0; k < int(best->lines.size()); ++k) at.push_back({best, k});
  }
  return {};
}

// Every planned trace of a spread of configs: sizes, blocks, the options that change the steps
// (bins too, for the rows that take them: a distributed sort's scheme follows its GPUs).
template <class F>
void for_each_trace(const Algorithm& a, F f) {
  int planned = 0;
  for (std::int32_t bins : {16, 2}) {
    if (bins != 16 && !(a.options & kOptBins)) continue;
    for (std::int32_t n : {16, 100, 600})
      for (std::int32_t block : {4, 8, 32, 64, 256})
        for (bool inclusive : {false, true})
          for (std::int32_t variant : {0, 1, 2})
            for (bool key_value : {false, true})
              for (ElemType type : {ElemType::I32, ElemType::U32})
                for (std::int32_t digit_bits : {3, 4}) {
                  StepConfig cfg;
                  cfg.n = n;
                  cfg.block = block;
                  cfg.inclusive = inclusive;
                  cfg.variant = variant;
                  cfg.key_value = key_value;
                  cfg.type = type;
                  cfg.digit_bits = digit_bits;
                  cfg.bins = bins;
                  fit_config(a, cfg);  // the row's bins (a distributed sort's GPUs)
                  Trace t;
                  if (!plan_trace(a, cfg, make_input(InputKind::Random, n, type, 7), t).ok()) continue;
                  ++planned;
                  f(cfg, t);
                }
  }
  EXPECT_GT(planned, 0) << a.name << ": no config planned";
}

}  // namespace

TEST(Listings, MarkersAreWellFormed) {
  for (const std::string& e : listing::errors()) ADD_FAILURE() << e;
  EXPECT_FALSE(listing::all().empty());
  for (const listing::Listing& l : listing::all()) {
    EXPECT_FALSE(l.lines.empty()) << l.name;
    EXPECT_FALSE(l.tags.empty()) << l.name << " marks no step";
    for (const std::string& line : l.lines) {
      EXPECT_EQ(line.find("// step:"), std::string::npos) << l.name << ": " << line;
      EXPECT_EQ(line.find("// listing:"), std::string::npos) << l.name << ": " << line;
      for (const char* record : {"probe.op(", "probe.count(", "probe.barrier("})
        EXPECT_EQ(line.find(record), std::string::npos) << l.name << ": a trace-recording line is shown: " << line;
    }
  }
}

TEST(Listings, LookUps) {
  const listing::Listing* l = listing::find("scan-naive");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(&listing::lines("scan-naive"), &l->lines);
  const int sweep = listing::line_of("scan-naive", "sweep");
  ASSERT_GE(sweep, 0);
  EXPECT_NE(l->lines[std::size_t(sweep)].find("in[i - offset]"), std::string::npos) << l->lines[std::size_t(sweep)];
  EXPECT_EQ(listing::tag_at("scan-naive", sweep), "sweep");
  EXPECT_EQ(listing::tag_at("scan-naive", 0), "");
  EXPECT_EQ(l->lines[0].rfind("// scan_naive.cuh:", 0), 0u) << l->lines[0];
  EXPECT_EQ(listing::find("no-such-listing"), nullptr);
  // A step spanning several lines tags each of them: Blelloch's swap and add.
  for (const listing::Tag& t : listing::find("scan-blelloch")->tags)
    if (t.name == "down-sweep") EXPECT_EQ(t.lines.size(), 3u);
}

TEST(Listings, EveryStepHighlightsAMarkedLineOfItsPhase) {
  std::set<std::pair<std::string, std::string>> used;  // (listing, tag) highlighted by some step
  for (const Algorithm& a : algorithms()) {
    std::map<std::string, std::string> failures;  // the first config of each phase and problem
    for_each_trace(a, [&](const StepConfig& cfg, const Trace& t) {
      ASSERT_FALSE(t.code.empty()) << a.name;
      std::vector<Placed> at;
      if (Result r = place(t, at); !r.ok()) {
        failures.emplace("place", std::string(a.name) + ": " + r.message());
        return;
      }
      for (std::size_t k = 1; k < t.steps.size(); ++k) {
        const Step& s = t.steps[k];
        const std::string where = std::string(a.name) + " n=" + std::to_string(cfg.n) + " block=" +
                                  std::to_string(cfg.block) + " step " + std::to_string(k) + " (" + s.phase + ")";
        if (s.code_line < 0 || s.code_line >= int(t.code.size())) {
          failures.emplace(s.phase + " outside", where + ": code line " + std::to_string(s.code_line) +
                                                   " outside the listing");
          continue;
        }
        for (int also : s.also_lit) {
          const Placed& q = at[std::size_t(also)];
          const std::string also_tag = listing::tag_at(q.listing->name, q.line);
          if (also_tag.empty()) failures.emplace(s.phase + " also", where + ": also lights an untagged line");
          used.insert({q.listing->name, also_tag});
        }
        const Placed& p = at[std::size_t(s.code_line)];
        const std::string tag = listing::tag_at(p.listing->name, p.line);
        if (tag.empty()) {
          failures.emplace(s.phase + " untagged",
                           where + ": highlights an untagged line: " + t.code[std::size_t(s.code_line)]);
          continue;
        }
        used.insert({p.listing->name, tag});
        // Where the listing tags the step's phase, the step highlights a line of that phase.
        const std::string phase = own_phase(s.phase);
        bool phase_tagged = false;
        for (const listing::Tag& g : p.listing->tags) phase_tagged |= tag_phase(g.name) == phase;
        if (phase_tagged && tag_phase(tag) != phase)
          failures.emplace(s.phase + " other", where + ": highlights a line tagged '" + tag + "'");
      }
    });
    for (const auto& problem : failures) ADD_FAILURE() << problem.second;
  }
  for (const listing::Listing& l : listing::all())
    for (const listing::Tag& g : l.tags)
      EXPECT_TRUE(used.count({l.name, g.name})) << "no step highlights '" << g.name << "' of listing " << l.name;
}
