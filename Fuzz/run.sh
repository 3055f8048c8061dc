#!/usr/bin/env bash
# Builds the fuzz target with libFuzzer and AddressSanitizer and runs it.
#
#   Fuzz/run.sh [SECONDS] [extra libFuzzer flags...]     # default 600 s
#
# New interesting inputs go to Fuzz/.corpus-work/ (not committed); the seeds in
# Fuzz/corpus/ are only read. Crashes are written to Fuzz/artifacts/ (crash-<sha1>):
# turn each into a regression test (Tests/SluiceTests/SPI/FuzzRegressionTests.swift).
# To shrink the corpus worth keeping: Fuzz/run.sh merge
set -euo pipefail
cd "$(dirname "$0")"
duration="${1:-600}"
shift || true

scratch=.build-fuzz
swift build -c debug --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address >&2
binary="$(swift build -c debug --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address --show-bin-path)/SluiceFuzz"
# SLUICE_FUZZ_TARGET=csv or zip: the CSV or zip reader's target, with corpus-csv/ or
# corpus-zip/ and its own .corpus-work-<target>/.
suffix="${SLUICE_FUZZ_TARGET:+-$SLUICE_FUZZ_TARGET}"
corpus="corpus$suffix"
work=".corpus-work$suffix"
mkdir -p "$work" artifacts

if [[ "$duration" == "merge" ]]; then
    # Minimises corpus/ + .corpus-work/ into corpus-min/ (review, then replace corpus/).
    rm -rf corpus-min && mkdir corpus-min
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 exec "$binary" -merge=1 corpus-min "$corpus" "$work"
fi

# detect_leaks=0: LeakSanitizer cannot see through the tag bits of Swift string pointers and
# reports the model, which a global keeps alive, as leaked.
# The Swift runtime's backtracer and ASan both want to handle a crash: leave it to ASan.
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# With -jobs, libFuzzer writes fuzz-N.log into the current folder: one folder per target, so
# that the targets can run side by side.
logs=".logs$suffix"
mkdir -p "$logs"
cd "$logs"
exec "$binary" "../$work" "../$corpus" \
    -max_total_time="$duration" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=../artifacts/ -print_final_stats=1 "$@"
