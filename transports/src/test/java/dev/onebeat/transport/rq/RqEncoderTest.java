package dev.onebeat.transport.rq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.internal.redis.RedisCommand;
import dev.onebeat.transport.testing.PythonInterpreter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

class RqEncoderTest {

    private static final IdempotencyKey KEY = new IdempotencyKey("invoice-reminders/2026-11-29T08:00:00Z/send_reminder");
    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");
    private static final Instant ENQUEUED_AT = Instant.parse("2026-11-29T07:55:45.944736Z");
    private static final String ID = "c61f66bf-bc57-542f-bde1-5590642833a5";

    private static RqJob job() {
        return RqEncoder.encode("rqtasks.add", "onebeat-test", KEY, SCHEDULED_AT, "[2, 3]", "{\"note\":\"Zoë\"}",
                ENQUEUED_AT);
    }

    @Test
    void jobIdIsTheUuidV5OfTheKeyAndFitsRqIdRule() {
        RqJob job = job();

        assertThat(job.id()).isEqualTo(ID).matches("[A-Za-z0-9_-]+");
        assertThat(job.jobKey()).isEqualTo("rq:job:" + ID);
        assertThat(job.queueKey()).isEqualTo("rq:queue:onebeat-test");
    }

    @Test
    void dataIsZlibOfThePickledCallTuple() {
        byte[] data = job().fields().get("data");

        assertThat(HexFormat.of().formatHex(data, 0, 2)).isEqualTo("789c");
        assertThat(HexFormat.of().formatHex(inflate(data))).isEqualTo("8002"
                + "28" + "580b000000" + "72717461736b732e616464" + "4e"
                + "28" + "4a02000000" + "4a03000000" + "74"
                + "7d28" + "5804000000" + "6e6f7465" + "5804000000" + "5a6fc3ab" + "75"
                + "74" + "2e");
    }

    @Test
    void textFieldsAreWhatRqWrites() {
        Map<String, byte[]> fields = job().fields();

        assertThat(fields.keySet()).containsExactly("data", "created_at", "enqueued_at", "origin", "description",
                "status", "timeout", "meta", "success_callback_name", "failure_callback_name", "stopped_callback_name",
                "started_at", "ended_at", "last_heartbeat", "worker_name", "group_id");
        assertThat(text(fields, "created_at")).isEqualTo("2026-11-29T07:55:45.944736Z");
        assertThat(text(fields, "enqueued_at")).isEqualTo("2026-11-29T07:55:45.944736Z");
        assertThat(text(fields, "origin")).isEqualTo("onebeat-test");
        assertThat(text(fields, "description")).isEqualTo("rqtasks.add(2, 3, note='Zoë')");
        assertThat(text(fields, "status")).isEqualTo("queued");
        assertThat(text(fields, "timeout")).isEqualTo("180");
        assertThat(fields.get("worker_name")).isEmpty();
        assertThat(fields.get("group_id")).isEmpty();
    }

    @Test
    void metaIsThePlainPickleOfTheKeyAndTheScheduledInstant() {
        // RQ's default serializer writes and reads meta with pickle alone; unlike data, it is not zlib'd
        assertThat(HexFormat.of().formatHex(job().fields().get("meta"))).isEqualTo("8002" + "7d28"
                + "580f000000" + hex("idempotency_key") + "5834000000" + hex(KEY.value())
                + "580c000000" + hex("scheduled_at") + "5814000000" + hex("2026-11-29T08:00:00Z")
                + "75" + "2e");
    }

    @Test
    void pythonLoadsTheMetaAsRqsDefaultSerializerDoes() {
        PythonInterpreter.require();

        assertThat(PythonInterpreter.unpickle(job().fields().get("meta"))).isEqualTo("{'idempotency_key': '"
                + KEY.value() + "', 'scheduled_at': '2026-11-29T08:00:00Z'}");
    }

    @Test
    void scheduledAtInMetaIsTheInstantsIsoTextNotRqsSixDigitTime() {
        RqJob job = RqEncoder.encode("m.f", "q", KEY, Instant.parse("2026-11-29T08:00:00.120Z"), "[]", "{}",
                ENQUEUED_AT);

        assertThat(new String(job.fields().get("meta"), StandardCharsets.UTF_8)).contains("2026-11-29T08:00:00.120Z");
    }

    @Test
    void timesAlwaysCarrySixFractionDigits() {
        RqJob job = RqEncoder.encode("m.f", "q", KEY, SCHEDULED_AT, "[]", "{}", Instant.parse("2026-11-29T08:00:00Z"));

        assertThat(text(job.fields(), "created_at")).isEqualTo("2026-11-29T08:00:00.000000Z");
    }

    @Test
    void commandsRegisterQueueThenWriteHashBeforePushingTheId() {
        assertThat(job().commands()).extracting(RedisCommand::toString).containsExactly(
                "SADD rq:queues rq:queue:onebeat-test",
                "MULTI",
                "HSET rq:job:" + ID + " status queued",
                "HSET rq:job:" + ID + " data hex:" + HexFormat.of().formatHex(job().fields().get("data"))
                        + " created_at 2026-11-29T07:55:45.944736Z enqueued_at 2026-11-29T07:55:45.944736Z"
                        + " origin onebeat-test description hex:"
                        + HexFormat.of().formatHex("rqtasks.add(2, 3, note='Zoë')".getBytes(StandardCharsets.UTF_8))
                        + " status queued timeout 180 meta hex:" + HexFormat.of().formatHex(job().fields().get("meta"))
                        + " success_callback_name \"\" failure_callback_name \"\""
                        + " stopped_callback_name \"\" started_at \"\" ended_at \"\" last_heartbeat \"\""
                        + " worker_name \"\" group_id \"\"",
                "PERSIST rq:job:" + ID,
                "RPUSH rq:queue:onebeat-test " + ID,
                "EXEC");
    }

    @Test
    void sameKeyGivesIdenticalBytes() {
        assertThat(job().commands()).usingRecursiveFieldByFieldElementComparator()
                .containsExactlyElementsOf(job().commands());
        assertThat(job().fields().get("data")).isEqualTo(job().fields().get("data"));
    }

    @Test
    void descriptionCutsLongArgumentsAndSortsKeywords() {
        String longText = "x".repeat(100);

        assertThat(RqEncoder.encode("m.f", "q", KEY, SCHEDULED_AT, "[\"" + longText + "\"]", "{\"b\":1,\"a\":null}",
                        ENQUEUED_AT).fields().get("description"))
                .asString(StandardCharsets.UTF_8)
                .isEqualTo("m.f('" + "x".repeat(74) + "..., a=None, b=1)");
    }

    @Test
    void blankQueueIsRefusedByName() {
        assertThatThrownBy(() -> RqEncoder.encode("m.f", " ", KEY, SCHEDULED_AT, "[]", "{}", ENQUEUED_AT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue");
    }

    @Test
    void argumentsThatAreNotAJsonArrayAreRefused() {
        assertThatThrownBy(() -> RqEncoder.encode("m.f", "q", KEY, SCHEDULED_AT, "{\"a\":1}", "{}", ENQUEUED_AT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("args must be a JSON array");
    }

    @Test
    void pythonInflatesAndLoadsTheData() {
        PythonInterpreter.require();

        assertThat(PythonInterpreter.run(
                "import pickle,sys,zlib; print(ascii(pickle.loads(zlib.decompress(bytes.fromhex(sys.argv[1])))))",
                job().fields().get("data")))
                .isEqualTo("('rqtasks.add', None, (2, 3), {'note': 'Zo\\xeb'})");
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(Map<String, byte[]> fields, String name) {
        return new String(fields.get(name), StandardCharsets.UTF_8);
    }

    private static byte[] inflate(byte[] data) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(data);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[256];
            while (!inflater.finished()) {
                out.write(buffer, 0, inflater.inflate(buffer));
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalStateException(e);
        } finally {
            inflater.end();
        }
    }
}
