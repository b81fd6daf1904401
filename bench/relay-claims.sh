#!/usr/bin/env bash
# The relay's database work alone (no publish) in five claim designs, on the same refilled outbox: the claim
# UPDATE plus mark UPDATE of a lease; row locks kept through the publish plus one mark UPDATE (the relay now); the same
# with the rows deleted instead of marked (onebeat.relay.on-publish=delete); a cursor reading committed transactions'
# rows between two snapshots, with no write per row; and that cursor with each page marked published (BENCHMARKS.md).
#
#   bench/relay-claims.sh [ROWS] [BATCH] [ROUNDS]      defaults: 50000 1000 3
JAVA_OPTS="${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml" exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.RelayClaimDesigns "$@"
