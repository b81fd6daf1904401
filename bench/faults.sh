#!/usr/bin/env bash
# The database-fault scenario: 3 scheduler replicas as separate JVMs on one PostgreSQL database, a job
# due every second, every session of the database terminated every 0.3 s for 70 s, then 20 s calm;
# prints the outcome of every instant of the faults from the instants API (committed, skipped by
# reason, failed, missed and why, none), duplicate commits, and the replicas' failure counters and log
# lines (docs/alerts.md, "Outcomes under database faults"). About 3 minutes.
#
#   bench/faults.sh
#   bench/faults.sh --replicas=3 --faults=70s --calm=20s --kill-every=300ms
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.FaultsBenchmark "$@"
