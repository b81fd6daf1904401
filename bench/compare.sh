#!/usr/bin/env bash
# Compares two versions of onebeat on one benchmark, interleaved: both are built first, each into a
# class path of its own, then the benchmark runs A, B, A, B ... so a machine that drifts during the
# comparison (a busy PostgreSQL, a warm or cold cache) weighs on both alike. No build runs between
# two benchmark runs. The versions are built in git worktrees under target/compare/ of this clone.
#
#   bench/compare.sh BEFORE AFTER ROUNDS MAIN_CLASS [ARGS...]
#   bench/compare.sh 1b89786 HEAD 2 dev.onebeat.scheduler.bench.FireBenchmark --mode=burst --raw-jobs=2000
#
# Each run's output goes to target/compare/<commit>-<benchmark>-<round>.log; its last 15 lines are printed at the
# end, one version after the other, round by round.
set -euo pipefail

if [ "$#" -lt 4 ]; then
    sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
before="$1"
after="$2"
rounds="$3"
main_class="$4"
shift 4

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/target/compare"
mkdir -p "$work"

# builds COMMIT in its own worktree and writes the benchmark's class path to $work/<sha>.classpath; prints <sha>
build() {
    local sha tree
    sha="$(git -C "$root" rev-parse --short "$1")"
    tree="$work/$sha"
    if [ ! -f "$work/$sha.classpath" ]; then
        git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true
        git -C "$root" worktree add --force --detach "$tree" "$sha" >/dev/null
        # package, not install: in one reactor the sibling modules resolve to this tree's own jars, so the two
        # versions never overwrite each other's snapshots in the local repository; scheduler-app is the last
        # module built, so its class path is the one left in the file
        (cd "$tree" && ./mvnw -B -q -T1 -DskipTests -pl scheduler-app -am package dependency:build-classpath \
            -Dmdep.includeScope=test -Dmdep.outputFile="$tree/deps.classpath" >&2)
        printf '%s:%s:%s' "$tree/scheduler-app/target/test-classes" "$tree/scheduler-app/target/classes" \
            "$(cat "$tree/deps.classpath")" >"$work/$sha.classpath"
    fi
    echo "$sha"
}

a="$(build "$before")"
b="$(build "$after")"
bench="${main_class##*.}"
for ((round = 1; round <= rounds; round++)); do
    for sha in "$a" "$b"; do
        log="$work/$sha-$bench-$round.log"
        echo "== round $round, $sha ($(date -u +%H:%M:%S) UTC) -> $log"
        (cd "$work/$sha" && java ${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml \
            -cp "$(cat "$work/$sha.classpath")" "$main_class" "$@") >"$log" 2>&1
    done
done
for ((round = 1; round <= rounds; round++)); do
    for sha in "$a" "$b"; do
        echo "== round $round, $sha"
        tail -n 15 "$work/$sha-$bench-$round.log"
    done
done
