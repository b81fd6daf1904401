package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdempotencyKeyTest {

    private static final Instant AT = Instant.parse("2026-11-29T08:00:00Z");
    private static final String LONG = "p".repeat(10_000);

    private static IdempotencyKey key(String job, String task, Entity entity) {
        return IdempotencyKey.of(job, AT, task, entity);
    }

    /** Keys are stored by consumers, so these values must never change. */
    @Nested
    class GoldenValues {

        @Test
        void jobInstantTaskAndEntity() {
            assertThat(IdempotencyKey.of("invoice-reminders", AT, "send_reminder", Entity.of("order", 42)).value())
                    .isEqualTo("invoice-reminders/2026-11-29T08:00:00Z/send_reminder/order:42");
        }

        @Test
        void withoutEntity() {
            assertThat(IdempotencyKey.of("invoice-reminders", AT, "send_reminder", null).value())
                    .isEqualTo("invoice-reminders/2026-11-29T08:00:00Z/send_reminder");
        }

        @Test
        void fractionalSecondInstantKeepsItsFraction() {
            Instant at = Instant.parse("2026-11-29T08:00:00.125Z");

            assertThat(IdempotencyKey.of("invoice-reminders", at, "send_reminder", null).value())
                    .isEqualTo("invoice-reminders/2026-11-29T08:00:00.125Z/send_reminder");
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
                a/b        | a%2Fb
                100%       | 100%25
                x~y        | x%7Ey
                "a b"      | a%20b
                café       | caf%C3%A9
                "tab\there" | tab%09here
                a:b        | a:b
                """)
        void jobAndTaskArePercentEncoded(String raw, String encoded) {
            assertThat(key(raw, raw, null).value()).isEqualTo(encoded + "/2026-11-29T08:00:00Z/" + encoded);
        }

        @Test
        void entityTypeHasItsColonEncodedButNotEntityId() {
            assertThat(key("j", "t", Entity.of("a:b", "c:d")).value()).isEqualTo("j/2026-11-29T08:00:00Z/t/a%3Ab:c:d");
        }

        @Test
        void entityOutsideBasicMultilingualPlaneIsEncodedAsUtf8() {
            assertThat(key("j", "t", Entity.of("emoji", "\uD83D\uDE00")).value())
                    .isEqualTo("j/2026-11-29T08:00:00Z/t/emoji:%F0%9F%98%80");
        }

        @Test
        void longPartIsCutToPrefixAndHash() {
            assertThat(key("x".repeat(100), "t", null).value())
                    .isEqualTo("x".repeat(43) + "~09ecb6ebc8bcefc733f6/2026-11-29T08:00:00Z/t");
        }

        @Test
        void uuids() {
            assertThat(IdempotencyKey.of("invoice-reminders", AT, "send_reminder", Entity.of("order", 42)).toUuid())
                    .isEqualTo(UUID.fromString("98dab5fc-bf32-555c-b07a-59506654af6c"));
            assertThat(IdempotencyKey.of("invoice-reminders", AT, "send_reminder", null).toUuid())
                    .isEqualTo(UUID.fromString("c61f66bf-bc57-542f-bde1-5590642833a5"));
        }
    }

    @Nested
    class Uuids {

        @Test
        void uuidV5MatchesTheRfcExample() {
            UUID dns = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");

            assertThat(IdempotencyKey.uuidV5(dns, "www.example.com"))
                    .isEqualTo(UUID.fromString("2ed6657d-e927-568b-95e1-2665a8aea6a2"));
        }

        @Test
        void keyUuidIsNameBasedSha1WithRfcVariant() {
            UUID uuid = key("j", "t", Entity.of("order", 1)).toUuid();

            assertThat(uuid.version()).isEqualTo(5);
            assertThat(uuid.variant()).isEqualTo(2);
        }

        @Test
        void distinctKeysGetDistinctUuids() {
            assertThat(key("j", "t", Entity.of("order", 1)).toUuid()).isNotEqualTo(key("j", "t", Entity.of("order", 2)).toUuid());
        }
    }

    @Nested
    class Distinctness {

        @Test
        void distinctEntityIds() {
            assertThat(key("j", "t", Entity.of("order", 1))).isNotEqualTo(key("j", "t", Entity.of("order", 2)));
        }

        @Test
        void distinctEntityTypes() {
            assertThat(key("j", "t", Entity.of("order", 1))).isNotEqualTo(key("j", "t", Entity.of("invoice", 1)));
        }

        @Test
        void withAndWithoutEntity() {
            assertThat(key("j", "t", Entity.of("order", 1))).isNotEqualTo(key("j", "t", null));
        }

        @Test
        void distinctInstantsEvenOneMillisecondApart() {
            assertThat(IdempotencyKey.of("j", AT, "t", null))
                    .isNotEqualTo(IdempotencyKey.of("j", AT.plusMillis(1), "t", null));
        }

        @Test
        void distinctTasks() {
            assertThat(key("j", "t1", null)).isNotEqualTo(key("j", "t2", null));
        }

        @Test
        void distinctJobs() {
            assertThat(key("j1", "t", null)).isNotEqualTo(key("j2", "t", null));
        }

        @Test
        void slashCannotMoveTheBoundaryBetweenJobAndTask() {
            assertThat(key("a/b", "c", null)).isNotEqualTo(key("a", "b/c", null));
        }

        @Test
        void colonCannotMoveTheBoundaryBetweenEntityTypeAndId() {
            assertThat(key("j", "t", Entity.of("a:b", "c"))).isNotEqualTo(key("j", "t", Entity.of("a", "b:c")));
        }

        @Test
        void encodedTextCannotPassForItsEncoding() {
            assertThat(key("a%2Fb", "t", null)).isNotEqualTo(key("a/b", "t", null));
        }

        @Test
        void hashedPartCannotPassForAShortOne() {
            String hashed = key("x".repeat(100), "t", null).value();
            String hashedJob = hashed.substring(0, hashed.indexOf('/'));

            assertThat(key(hashedJob, "t", null).value()).isNotEqualTo(hashed);
        }
    }

    @Nested
    class LongParts {

        // the longest entity parts a task may have; job and task names are hashed the same way at any length
        private final Entity longEntity = Entity.of(LONG.substring(0, Entity.MAX_TYPE_LENGTH),
                LONG.substring(0, Entity.MAX_ID_LENGTH));
        private final IdempotencyKey longest = key(LONG, LONG, longEntity);

        @Test
        void keyStaysWithinMaxLength() {
            assertThat(longest.value()).hasSizeLessThanOrEqualTo(IdempotencyKey.MAX_LENGTH);
        }

        @Test
        void keyIsPrintableAscii() {
            assertThat(longest.value()).matches("[\\x21-\\x7e]+");
        }

        @Test
        void keyIsStable() {
            assertThat(key(LONG, LONG, Entity.of(longEntity.type(), longEntity.id()))).isEqualTo(longest);
        }

        @Test
        void partsDifferingOnlyInTheirLastCharacterGiveDistinctKeys() {
            String other = LONG.substring(1) + "q";
            String otherId = longEntity.id().substring(1) + "q";
            String otherType = longEntity.type().substring(1) + "q";

            assertThat(key(other, LONG, longEntity)).isNotEqualTo(longest);
            assertThat(key(LONG, other, longEntity)).isNotEqualTo(longest);
            assertThat(key(LONG, LONG, Entity.of(longEntity.type(), otherId))).isNotEqualTo(longest);
            assertThat(key(LONG, LONG, Entity.of(otherType, longEntity.id()))).isNotEqualTo(longest);
        }

        @Test
        void longNonAsciiPartStaysAscii() {
            String accented = "é".repeat(10_000);
            Entity entity = Entity.of(accented.substring(0, Entity.MAX_TYPE_LENGTH), accented.substring(0, Entity.MAX_ID_LENGTH));

            assertThat(key(accented, accented, entity).value())
                    .hasSizeLessThanOrEqualTo(IdempotencyKey.MAX_LENGTH)
                    .matches("[\\x21-\\x7e]+");
        }
    }

    @Nested
    class Validation {

        @Test
        void emptyKeyRejected() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new IdempotencyKey(""))
                    .withMessageContaining("key must have 1 to 255 characters, had 0");
        }

        @Test
        void overlongKeyRejected() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new IdempotencyKey("k".repeat(256)))
                    .withMessageContaining("had 256");
        }

        @Test
        void blankEntityTypeRejectedNamingField() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Entity.of(" ", 1))
                    .withMessage("entity.type must not be blank, was ' '");
        }
    }

    @Test
    void unpairedSurrogatesStayDistinct() {
        Instant at = Instant.parse("2026-11-29T08:00:00Z");
        assertThat(IdempotencyKey.of("j", at, "t", Entity.of("a", "\uD800")))
                .isNotEqualTo(IdempotencyKey.of("j", at, "t", Entity.of("a", "\uD801")));
    }

    @Test
    void hashedPartNeverEndsInsideAnEscape() {
        String key = IdempotencyKey.of("\u00e9".repeat(40), Instant.parse("2026-11-29T08:00:00Z"), "t", null).value();
        String job = key.substring(0, key.indexOf('/'));
        assertThat(job).matches("(%[0-9A-F]{2})+~[0-9a-f]{20}");
    }

    @Test
    void aRunOutsideTheScheduleCarriesItsIdAfterTheInstant() {
        Instant at = Instant.parse("2026-11-29T08:00:00.123Z");

        assertThat(IdempotencyKey.of("nightly", at, "r-42", "report", Entity.of("day", 1)).value())
                .isEqualTo("nightly/2026-11-29T08:00:00.123Z~r-42/report/day:1");
        assertThat(IdempotencyKey.of("nightly", at, null, "report", null))
                .isEqualTo(IdempotencyKey.of("nightly", at, "report", null));
    }

    @Test
    void runsOfOneInstantAndTheScheduledFireOfItNeverShareAKey() {
        Instant at = Instant.parse("2026-11-29T08:00:00Z");

        assertThat(java.util.Set.of(IdempotencyKey.of("j", at, null, "t", null), IdempotencyKey.of("j", at, "a", "t", null),
                IdempotencyKey.of("j", at, "b", "t", null), IdempotencyKey.of("j", at, "a~b", "t", null),
                IdempotencyKey.of("j", at, "a/t", "t", null))).hasSize(5);
    }

    @Test
    void aLongRunIdIsHashedSoTheLongestKeyStillFits() {
        String longest = "x".repeat(100);
        IdempotencyKey key = IdempotencyKey.of(longest, Instant.parse("2026-11-29T08:00:00.123456789Z"), longest, longest,
                Entity.of(longest, longest));

        String run = key.value().split("/")[1].substring("2026-11-29T08:00:00.123456789Z~".length());
        assertThat(run).matches("xxx~[0-9a-f]{20}");
        assertThat(key.value().length()).isLessThanOrEqualTo(IdempotencyKey.MAX_LENGTH);
    }
}
