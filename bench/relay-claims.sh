#!/usr/bin/env bash
# The relay's database work alone (no publish) in the two claim designs, on the same refilled outbox: the claim
# UPDATE plus mark UPDATE of a lease, against row locks kept through the publish plus one mark UPDATE (BENCHMARKS.md).
#
#   bench/relay-claims.sh [ROWS] [BATCH] [ROUNDS]      defaults: 50000 1000 3
JAVA_OPTS="${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml" exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.RelayClaimDesigns "$@"
