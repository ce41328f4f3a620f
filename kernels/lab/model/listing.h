// The Step tab's code listings, cut at build time from the lab's real kernel sources
// (kernels/lab/algorithms/**/*.cu, embedded as text), so that a listing cannot drift from the code.
//
// Markers in a source, each a comment:
//   // listing: NAME [NAME...]   opens a region of each listing NAME (one line may serve several)
//   // listing: end              closes every open region
//   CODE  // step: TAG           tags a line inside a region: the line a step of TAG highlights;
//                                several lines may carry one tag (a step that spans them)
// A listing is its regions in the order of the files' paths, then of their lines. Each region is
// shown with its indentation removed, after a line naming the file and line it starts at. The
// markers and the statements that only record the trace, the probe's calls (`probe.op(...)`,
// `probe.barrier();`, kernels/util/probe.cuh), are left out.
#pragma once
#include <string>
#include <vector>

namespace primlab::listing {

struct Tag {
  std::string name;
  std::vector<int> lines;  // the lines of the listing that carry it, in order
};

struct Listing {
  std::string name;
  std::vector<std::string> lines;
  std::vector<Tag> tags;  // in order of their first line
  // Per line, the source lines it stands for: its own, and those of the probe calls hidden after
  // it (a stepped run records the source line of each probe.op; this maps it to the line shown).
  std::vector<std::vector<int>> sources;
};

// Every listing of the sources, sorted by name.
const std::vector<Listing>& all();
// Malformed markers ("file:line: what"), empty when the sources are well marked.
const std::vector<std::string>& errors();

// The listing NAME; nullptr when no source marks it.
const Listing* find(const std::string& name);
// The lines of NAME; empty (and an assertion) when no source marks it.
const std::vector<std::string>& lines(const std::string& name);
// The first line of NAME tagged TAG; -1 (and an assertion) when there is none.
int line_of(const std::string& name, const std::string& tag);
// The tag of line LINE of NAME, "" when the line carries none.
std::string tag_at(const std::string& name, int line);

}  // namespace primlab::listing
