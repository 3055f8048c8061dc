#!/usr/bin/env bash
# Two builds of sluice side by side on W1 and W2 (cold, then the re-import), in interleaved
# rounds on the same generated inputs: how a change moved the time and peak memory. For the
# "before and after" an issue asks for; Benchmarks/compare.sh measures Sluice against its peers.
#
#   Benchmarks/before-after.sh BEFORE_BINARY AFTER_BINARY [--scale S] [--runs N]
#
# e.g. build the older commit in a worktree (`git worktree add /tmp/before REV && cd /tmp/before
# && swift build -c release --product sluice`), then pass both `.build/release/sluice`. Prints
# each median (with every run) and the ratio after/before, and the largest peak RSS of each.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,10p "$0" >&2; exit 64; }
before=$(realpath "$1"); after=$(realpath "$2"); shift 2
scale=1; runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) scale=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) echo "usage: $0 BEFORE AFTER [--scale S] [--runs N]" >&2; exit 64 ;;
    esac
done
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
swift build -c release --product sluice-fixtures >/dev/null
fixtures="$(swift build -c release --show-bin-path)/sluice-fixtures"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sluice-before-after.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$fixtures" --shape flat --scale "$scale" --output "$tmp/w1.json"
"$fixtures" --shape document --scale "$scale" --output "$tmp/w2.json"
models=LargeFixtures/models

# Runs one import; appends "seconds peakKiB" to the file named by $1.
run() {
    local out=$1; shift
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>&1
    cat "$tmp/time" >> "$out"
}
for round in $(seq "$runs"); do
    for side in before after; do
        binary=${!side}
        rm -f "$tmp/w1.sqlite" "$tmp/w2.sqlite"
        run "$tmp/$side.w1" "$binary" import --quiet --db "$tmp/w1.sqlite" --model "$models/flat.json" "$tmp/w1.json"
        run "$tmp/$side.w2" "$binary" import --quiet --db "$tmp/w2.sqlite" --model "$models/document.json" "$tmp/w2.json"
        run "$tmp/$side.re" "$binary" import --quiet --db "$tmp/w2.sqlite" --model "$models/document.json" "$tmp/w2.json"
    done
done
median() { cut -d' ' -f1 "$1" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
peak() { cut -d' ' -f2 "$1" | sort -n | tail -1; }
printf "%-12s %12s %12s %8s %16s %16s\n" workload "before (s)" "after (s)" ratio "before peak KiB" "after peak KiB"
for workload in w1 w2 re; do
    b=$(median "$tmp/before.$workload"); a=$(median "$tmp/after.$workload")
    name=$([ "$workload" = re ] && echo "w2 re-import" || echo "$workload")
    printf "%-12s %12s %12s %8s %16s %16s\n" "$name" "$b" "$a" "$(awk "BEGIN {printf \"%.3f\", $a / $b}")" \
        "$(peak "$tmp/before.$workload")" "$(peak "$tmp/after.$workload")"
done
