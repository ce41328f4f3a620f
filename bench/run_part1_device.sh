#!/bin/bash
# One device call for library part 1: the GPU tests, compute-sanitizer memcheck and racecheck
# on small sizes, then the benchmark at the target sizes. Run from the repository root with
# the stripped binaries in .dev/lib1 (part1_tests, bench); logs and JSON go to $OUT.
#   bash bench/run_part1_device.sh [tests|sanitize|bench|all]
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
B=.dev/lib1
what=${1:-all}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
if [[ $what == all || $what == tests ]]; then
  timeout 240 $B/part1_tests --gtest_brief=1 > "$OUT/tests.log" 2>&1
  echo "tests rc=$?"; tail -4 "$OUT/tests.log"
fi
if [[ $what == all || $what == sanitize ]]; then
  SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  F='ScanTest/*.SumMatchesReference:ReduceTest/*.Sum:SelectTest/*.LessThan:SelectTest/*.Flagged:HistogramEven.U8:HistogramEven.U32:DigitTest/*'
  PRIMLAB_TEST_MAX_N=${SAN_N:-40000} timeout 150 $SAN --tool memcheck --print-limit 20 $B/part1_tests --gtest_brief=1 --gtest_filter="$F" > "$OUT/memcheck.log" 2>&1
  echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3
  PRIMLAB_TEST_MAX_N=${SAN_N:-40000} timeout 150 $SAN --tool racecheck --print-limit 20 $B/part1_tests --gtest_brief=1 --gtest_filter='ScanTest/0.SumMatchesReference:ScanTest/4.MaxMatchesReference:ReduceTest/2.Sum:SelectTest/1.LessThan:SelectTest/3.Flagged:HistogramEven.U8:DigitTest/0.*' > "$OUT/racecheck.log" 2>&1
  echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" "$OUT/racecheck.log" | tail -3
fi
if [[ $what == all || $what == bench ]]; then
  ALGOS=reduce_sum,scan_exclusive,scan_inclusive,select_if,select_flagged,histogram_even
  # The main table: u32 (u8 for the byte histogram), every implementation, 2^16..2^28.
  timeout 330 $B/bench ${BENCH_ARGS:---algo $ALGOS --type u8,u32 --n 2^16,2^20,2^24,2^28} \
    --driver "$DRIVER" --commit "${PRIMLAB_COMMIT:-unknown}" --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1
  echo "bench rc=$?"; sed -n '/^gpu /,$p' "$OUT/bench.log" | grep -E "^gpu|primlab|cub " | grep -v "cub  *u8 *65536"
  # The other types at 2^28 against CUB and Thrust.
  timeout 150 $B/bench --algo $ALGOS --type i32,f32,i64,f64 --n 2^28 --impl primlab,cub,thrust \
    --driver "$DRIVER" --commit "${PRIMLAB_COMMIT:-unknown}" --json "$OUT/bench_types.json" > "$OUT/bench_types.log" 2>&1
  echo "bench types rc=$?"; sed -n '/^gpu /,$p' "$OUT/bench_types.log" | grep -E "primlab"
fi
