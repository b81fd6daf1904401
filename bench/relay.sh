#!/usr/bin/env bash
# The relay benchmark: relay throughput to RabbitMQ with confirms beside a raw amqp-client
# publish-with-confirms loop of the same messages, and the wake-up latency (BENCHMARKS.md).
#
#   bench/relay.sh
#   bench/relay.sh --batch-sizes=100,500,1000 --nodes=1
#   ONEBEAT_BENCH_AMQP_URL='amqp://bench:secret@mq:5672/%2F' bench/relay.sh
#   JAVA_OPTS=-Donebeat.bench.on-publish=delete bench/relay.sh   # the relay deletes what it published
JAVA_OPTS="${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml" exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.RelayBenchmark "$@"
