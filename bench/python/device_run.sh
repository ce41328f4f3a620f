#!/usr/bin/env bash
# The GPU half of the Python package's checks, on one GPU machine with no network, from the
# repository's top folder, with $OUT set: installs the bundle's wheels (device_bundle.sh made them)
# into /tmp/site, runs the GPU tests (pytest -m gpu: a missing device fails them) and the tests
# that need no GPU, then the sort benchmark. Leaves three files in $OUT: summary.txt (what it
# prints last), sort-from-python.json and python-logs.tar.gz (env.txt, install.log,
# gpu-tests.log, gpu-tests.xml, cpu-tests.log, bench.log). Ends within 5 minutes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)/python
mkdir -p "$out"
export PYTHONPATH=/tmp/site PYTHONDONTWRITEBYTECODE=1 PRIMLAB_COMMIT=$(cat "$here/COMMIT")
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 --version
  python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'torch', torch.__version__)"
  python3 -c "import jax; print('jax', jax.__version__, jax.devices())"
} > "$out/env.txt" 2>&1
timeout 30 python3 -m pip install -q --no-index --no-deps --target /tmp/site "$here"/*.whl > "$out/install.log" 2>&1
echo "install exit $?" >> "$out/install.log"
cd "$here/tests"
timeout 135 python3 -m pytest -q -m gpu -p no:cacheprovider --junitxml="$out/gpu-tests.xml" . > "$out/gpu-tests.log" 2>&1
echo "pytest exit $?" >> "$out/gpu-tests.log"
timeout 20 python3 -m pytest -q -rs -m "not gpu" -p no:cacheprovider . > "$out/cpu-tests.log" 2>&1
echo "pytest exit $?" >> "$out/cpu-tests.log"
timeout 100 python3 "$here/sort_from_python.py" --cpp "$here/call-overhead" --out "$out/sort-from-python.json" \
  > "$out/bench.log" 2>&1
echo "bench exit $?" >> "$out/bench.log"

{
echo "== primlab Python package on $(head -1 "$out/env.txt") (commit $PRIMLAB_COMMIT)"
grep -E '^(cupy|jax) ' "$out/env.txt"
tail -1 "$out/install.log"
python3 - "$out/gpu-tests.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as error:
    print(f"GPU tests: no report ({error})")
    sys.exit()
suite = root if root.tag == "testsuite" else root.find("testsuite")
print(f"GPU tests: {suite.get('tests')} run, {suite.get('failures')} failed, {suite.get('errors')} errors, "
      f"{suite.get('skipped')} skipped, {float(suite.get('time') or 0):.0f} s")
failed = [(case.get("name"), (bad.get("message") or "").split("\n")[0][:150])
          for case in suite.iter("testcase") for bad in case.findall("failure") + case.findall("error")]
for name, message in failed[:15]:
    print(f"  FAIL {name}: {message}")
if len(failed) > 15:
    print(f"  ... and {len(failed) - 15} more (gpu-tests.log)")
for case in suite.iter("testcase"):
    for skip in case.findall("skipped"):
        print(f"  SKIPPED {case.get('name')}: {(skip.get('message') or '')[:150]}")
PY
echo "CPU tests: $(grep -E 'passed|failed|error' "$out/cpu-tests.log" | tail -1)"
sed -n '/^== sort from Python/,$p' "$out/bench.log" | head -60
tail -1 "$out/bench.log"
} | tee "$OUT/summary.txt"
cp "$out/sort-from-python.json" "$OUT/" 2>/dev/null
tar -czf "$OUT/python-logs.tar.gz" -C "$(dirname "$out")" python
