#!/usr/bin/env bash
# One device run of the multi-GPU sort on a 4-GPU machine, from the repository root, with $OUT set
# and this script beside the binaries it runs (primlab_multigpu_tests, primlab_library_tests,
# bench-multigpu, built with CUDAARCHS=90 and a static CUDA runtime; NCCL from the system) and
# distributed_cost_model.py, a file COMMIT holding the commit they were built from:
#   1. the GPUs and their links;
#   2. the NCCL tests on 2 and 4 ranks: one process driving the GPUs, one thread per GPU, one
#      process per GPU, both schemes in one piece and in several, an NCCL failure mid-pipeline;
#   3. bench-multigpu on the 4 GPUs: keys and pairs, 2^26, 2^28 and 2^30 per GPU, uniform, skewed
#      and all-equal keys, each scheme in 1, 4 (and 8) pieces, one GPU's sort of the same total,
#      every result checked (in order, the input's pairs);
#   4. side by side: bench-multigpu on GPUs 0 and 1, the loopback tests on GPU 2, compute-sanitizer
#      memcheck of the pipelined loopback on GPU 3;
#   5. bench-multigpu as one process per GPU (4 processes, the unique id through a file);
#   6. the summary: the fastest way per case, the targets, the cost model's error.
# Every step has a time limit (120 + 180 + 140 + 70 s), so that the whole ends in under 9 minutes.
# JSON and logs go to $OUT, flat (7 files: tests.log, bench.log, model.txt, summary.txt, the three
# runs' JSON).
set -u
export NCCL_NVLS_ENABLE=0
D=$(cd "$(dirname "$0")" && pwd)
chmod +x "$D/bench-multigpu" "$D/primlab_multigpu_tests" "$D/primlab_library_tests"
: "${OUT:?set OUT}"
COMMIT=$(cat "$D/COMMIT" 2>/dev/null || echo unknown)
TMP=$(mktemp -d)  # the logs of the steps that run side by side
T0=$SECONDS
step() { echo; echo "== $* ($((SECONDS - T0)) s)"; }
# A log capped at 2 MB: a failed comparison of large vectors prints them whole.
capped() { head -c 2000000 >> "$1"; }

step "1. GPUs (commit $COMMIT)"
nvidia-smi -L
nvidia-smi topo -m 2>/dev/null | head -6
N=$(nvidia-smi -L | wc -l)
if [ "$N" -lt 2 ]; then echo "needs 2 GPUs or more, found $N"; exit 1; fi
G4=$(( N >= 4 ? 4 : N ))

step "2. NCCL tests, 2 and $N ranks"
timeout 120 "$D/primlab_multigpu_tests" --gtest_brief=1 2>&1 | capped "$OUT/tests.log"
echo "primlab_multigpu_tests: exit ${PIPESTATUS[0]}" | tee -a "$OUT/tests.log"
grep -E "^\[  (PASSED|FAILED) \]|FAILED TEST|Failure" "$OUT/tests.log" | head -20

step "3. bench-multigpu, $G4 GPUs"
timeout 180 "$D/bench-multigpu" --gpus "$G4" --log2 26,28,30 --kinds keys,pairs --dists uniform,skewed,all-equal \
  --ways sort-first:1,sort-first:4,partition-first:1,partition-first:4,partition-first:8 --reps 5 \
  --commit "$COMMIT" --json "$OUT/bench-${G4}gpu.json" 2>&1 | capped "$OUT/bench.log"
echo "bench $G4 GPUs: exit ${PIPESTATUS[0]}" | tee -a "$OUT/bench.log"

step "4. bench-multigpu on GPUs 0-1 | loopback tests | memcheck"
timeout 140 "$D/bench-multigpu" --gpus 2 --log2 26,28,30 --kinds keys,pairs --dists uniform,skewed,all-equal \
  --ways sort-first:1,sort-first:4,partition-first:1,partition-first:4 --reps 5 \
  --commit "$COMMIT" --json "$OUT/bench-2gpu.json" > "$TMP/bench2.log" 2>&1 &
BENCH2=$!
# With 4 GPUs the tests take GPUs 2 and 3 beside the bench; with fewer they follow it.
if [ "$N" -lt 4 ]; then wait $BENCH2; fi
LOOP_GPU=$(( N >= 4 ? 2 : 0 ))
MEM_GPU=$(( N >= 4 ? 3 : 0 ))
(CUDA_VISIBLE_DEVICES=$LOOP_GPU timeout 140 "$D/primlab_library_tests" --gtest_filter='Distributed*' --gtest_brief=1 2>&1;
 echo "loopback tests: exit $?") > "$TMP/loopback.log" &
LOOP=$!
if [ "$N" -lt 4 ]; then wait $LOOP; fi
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
(CUDA_VISIBLE_DEVICES=$MEM_GPU timeout 140 "$SANITIZER" --tool memcheck --error-exitcode 1 "$D/primlab_library_tests" \
   --gtest_filter='Distributed.ATransportFailure*:Distributed.EveryMessage*' --gtest_brief=1 2>&1 | tail -30;
 echo "memcheck: exit ${PIPESTATUS[0]}") > "$TMP/memcheck.log" &
MEM=$!
wait $BENCH2 $LOOP $MEM 2>/dev/null
capped "$OUT/bench.log" < "$TMP/bench2.log"
cat "$TMP/loopback.log" "$TMP/memcheck.log" | capped "$OUT/tests.log"
grep -E "^\[  (PASSED|FAILED) \]|FAILED TEST|exit|ERROR SUMMARY" "$OUT/tests.log" | tail -12

step "5. bench-multigpu, one process per GPU ($G4 processes)"
export D OUT COMMIT G4
export ID="$TMP/nccl-id"
timeout 70 bash -c 'for r in $(seq 0 $((G4 - 1))); do
    "$D/bench-multigpu" --rank $r --ranks $G4 --id-file "$ID" --log2 28 --kinds keys,pairs --dists uniform \
      --ways sort-first:4,partition-first:4 --reps 5 --commit "$COMMIT" --json "$OUT/bench-${G4}gpu-ppg.json" &
  done
  wait' 2>&1 | capped "$OUT/bench.log"
echo "bench per process: exit ${PIPESTATUS[0]}" | tee -a "$OUT/bench.log"
tail -4 "$OUT/bench.log"

step "6. summary"
FILES=$(ls "$OUT"/bench-*gpu*.json 2>/dev/null)
{
  python3 "$D/distributed_cost_model.py" check $FILES
  echo
  python3 "$D/distributed_cost_model.py" predict "$OUT/bench-${G4}gpu.json"
} > "$OUT/model.txt" 2>&1
python3 "$D/distributed_cost_model.py" summary $FILES 2>&1 | tee "$OUT/summary.txt"
echo "tests: $(grep -hE '^(primlab_multigpu_tests|loopback tests|memcheck): exit' "$OUT/tests.log" | tr '\n' ' ')"
rm -rf "$TMP"
echo "done in $((SECONDS - T0)) s"
