#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets (ASan + fuzzer instrumentation), writes their seed
# corpora, replays the kept regression inputs, then fuzzes each target for FUZZ_SECONDS.
# Usage: Fuzz/run.sh SWIFT SCRATCH SECONDS TARGET…
set -euo pipefail
swift=$1 scratch=$2 seconds=$3
shift 3
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
# SwiftPM does not notice files added to the root package (a path dependency here) once it has
# planned a build: drop the cached plan so the build sees the package as it is now.
rm -f "$scratch/debug.yaml"
"$swift" build --package-path Fuzz --scratch-path "$scratch" "${flags[@]}" 2>&1 | grep -v "Cannot export local symbol" || true
bin=$("$swift" build --package-path Fuzz --scratch-path "$scratch" "${flags[@]}" --show-bin-path)
mkdir -p "$scratch/artifacts" "$scratch/logs"
# Leaks are checked per input; Foundation's own leaks at exit are not Porter's (see FuzzFiles.swift).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
status=0
summary=()
for target in "$@"; do
  seeds="$scratch/seeds/$target" corpus="$scratch/corpus/$target"
  rm -rf "$seeds"; mkdir -p "$corpus"
  ASAN_OPTIONS=detect_leaks=0 PORTER_FUZZ_SEEDS="$seeds" "$bin/$target" >/dev/null
  regressions="Fuzz/regressions/$target"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== $target: replaying $(ls "$regressions" | wc -l) kept inputs"
    "$bin/$target" -runs=1 "$regressions"/* >"$scratch/logs/$target-regressions.log" 2>&1 || { echo "regression input fails again: see $scratch/logs/$target-regressions.log"; status=1; }
  fi
  echo "== $target: fuzzing for $seconds s ($(ls "$seeds" | wc -l) seeds, $(ls "$corpus" | wc -l) corpus inputs)"
  log="$scratch/logs/$target.log"
  if "$bin/$target" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" >"$log" 2>&1; then
    result="ok"
  else
    result="FOUND A PROBLEM (see $log and $scratch/artifacts/)"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  summary+=("$(printf '%-16s %10s executions %6s/s  coverage %6s  corpus %5s  peak RSS %5s MB  %s' \
    "$target" "${runs:-?}" "${rate:-?}" "${cov:-?}" "$(ls "$corpus" | wc -l)" "${rss:-?}" "$result")")
done
echo
printf '%s\n' "${summary[@]}"
exit $status
