package dev.onebeat.transport.arq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.internal.redis.RedisCommand;
import dev.onebeat.transport.testing.PythonInterpreter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ArqEncoderTest {

    private static final IdempotencyKey KEY = new IdempotencyKey("reports/2026-11-29T08:00:00Z/add");
    // 1795938959012 ms, past 2^31, so et needs LONG1
    private static final Instant ENQUEUED_AT = Instant.ofEpochMilli(1_795_938_959_012L);

    private static ArqJob job() {
        return ArqEncoder.encode("add", ArqEncoder.DEFAULT_QUEUE, KEY, "[1, 2]", "{}", ENQUEUED_AT);
    }

    @Test
    void payloadIsThePickledJobDictInArqOrder() {
        assertThat(HexFormat.of().formatHex(job().payload())).isEqualTo("8002" + "7d28"
                + "5801000000" + "74" + "4e"
                + "5801000000" + "66" + "5803000000" + "616464"
                + "5801000000" + "61" + "28" + "4a01000000" + "4a02000000" + "74"
                + "5801000000" + "6b" + "7d"
                + "5802000000" + "6574" + "8a06" + "a4be4d26a201"
                + "75" + "2e");
    }

    @Test
    void keyIsTheJobIdSoArqDeduplicatesIt() {
        ArqJob job = job();

        assertThat(job.id()).isEqualTo("reports/2026-11-29T08:00:00Z/add");
        assertThat(job.jobKey()).isEqualTo("arq:job:reports/2026-11-29T08:00:00Z/add");
        assertThat(job.resultKey()).isEqualTo("arq:result:reports/2026-11-29T08:00:00Z/add");
        assertThat(job.queueKey()).isEqualTo("arq:queue");
        assertThat(job.scoreMillis()).isEqualTo(1_795_938_959_012L);
        assertThat(job.expiresMillis()).isEqualTo(86_400_000L);
    }

    @Test
    void commandSetsTheJobAndScoresItOnlyWhenNeitherJobNorResultExists() {
        RedisCommand command = job().command();

        assertThat(command.name()).isEqualTo("EVAL");
        assertThat(new String(command.argument(1), StandardCharsets.UTF_8)).isEqualTo(
                "if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then return 0 end\n"
                        + "redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])\n"
                        + "redis.call('PSETEX', KEYS[1], ARGV[1], ARGV[2])\n"
                        + "return 1");
        assertThat(command.arguments()).hasSize(10);
        assertThat(command.toString()).endsWith(" 3 arq:job:reports/2026-11-29T08:00:00Z/add"
                + " arq:result:reports/2026-11-29T08:00:00Z/add arq:queue 86400000 hex:"
                + HexFormat.of().formatHex(job().payload()) + " 1795938959012 reports/2026-11-29T08:00:00Z/add");
    }

    @Test
    void sameKeyGivesIdenticalBytes() {
        assertThat(job().payload()).isEqualTo(job().payload());
        assertThat(job().command().toString()).isEqualTo(job().command().toString());
    }

    @Test
    void unicodeArgumentsArePickledAsUtf8() {
        ArqJob job = ArqEncoder.encode("greet", "arq:queue", KEY, "[\"日本\"]", "{\"emoji\":\"😀\"}", ENQUEUED_AT);

        assertThat(HexFormat.of().formatHex(job.payload()))
                .contains("5806000000" + "e697a5e69cac")
                .contains("5805000000" + "656d6f6a69" + "5804000000" + "f09f9880");
    }

    @Test
    void pythonLoadsThePayload() {
        PythonInterpreter.require();
        ArqJob job = ArqEncoder.encode("greet", "arq:queue", KEY, "[\"日本\", 1.5, null]", "{\"n\":-3}", ENQUEUED_AT);

        assertThat(PythonInterpreter.unpickle(job.payload())).isEqualTo(
                "{'t': None, 'f': 'greet', 'a': ('\\u65e5\\u672c', 1.5, None), 'k': {'n': -3}, 'et': 1795938959012}");
    }
}
