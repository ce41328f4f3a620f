#!/usr/bin/env bash
# Redraws the screenshots that the README shows, from a build: ./assets/screenshots/make.sh [BUILD]
# (default build/). Headless: `render` through EGL, and the window under Xvfb for the Step tab.
# The figures taken on the H200 (render-h200-*, perf-h200-*) come from `render --backend cuda`
# and `perf` run there; the commands are at the end, commented.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
out=assets/screenshots
render() { "$build/app/render" --size 1280x800 "$@"; }

render --preset lecture-bitonic-sequence --step 4 --out $out/bitonic.png
render --preset seed002-compaction --out $out/compact.png
render --algo histogram-shared --n 64 --bins 8 --block 16 --step 2 --out $out/histogram-shared.png
render --preset histogram-collisions --step 1 --out $out/histogram-tagged.png
render --preset lecture-tagged-bytes --step 3 --out $out/histogram-tagged-bytes.png
render --preset distributed-uniform --step 6 --out $out/distributed-sort.png
render --preset seed003-partition --out $out/partition-stable.png
render --race scan-naive,scan-blelloch --n 8 --step 3 --out $out/race.png
render --preset float-sort-specials --step 3 --out $out/radix-digits-float.png
render --preset lecture-radix-split --step 8 --out $out/radix-split.png
render --algo reduce-shuffle --n 64 --block 32 --step 3 --out $out/reduce-shuffle.png
render --algo reduce1 --n 64 --block 16 --step 3 --out $out/reduce1.png
render --algo scan-shared --n 64 --block 8 --step 4 --out $out/scan-shared.png
frames=$(mktemp -d)
"$build/app/render" --algo scan-naive --n 32 --all --out "$frames" --gif $out/scan-naive.gif --delay 60 > /dev/null
rm -rf "$frames"

# The Step tab and the Performance tab (CPU rows) in a real window.
config=$(mktemp -d)
XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1440x900x24" "$build/app/primlab" --algo scan-blelloch --n 16 \
  --block 4 --step 2 --smoke-frames 20 --screenshot $out/step-blelloch.png
XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1440x900x24" "$build/app/primlab" --tab perf --perf-sweep \
  --smoke-frames 10 --screenshot $out/perf-cpu-xvfb.png
rm -rf "$config"

# On the H200 (CUDA build, EGL from the NVIDIA driver):
#   render --backend cuda --preset blelloch-8 --step 3 --size 1280x800 --out render-h200-blelloch.png
#   perf --prim scan_exclusive --type u32 --impl scan-naive,scan-blelloch,scan-shared,primlab,cub,thrust,cpu,cpu-par \
#        --n 2^10..2^28 --out results/   (perf-scan_exclusive-u32.png, -throughput.png, perf-tab.png)
#   perf --prim scan_exclusive --impl scan-naive,scan-blelloch,scan-shared,primlab,cub --block-sweep --n 2^20 \
#        --out results/                  (perf-scan_exclusive-u32-block.png)
