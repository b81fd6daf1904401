package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.ZoneId;
import java.util.Locale;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class DstPolicyTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Test
    void defaultShiftsGapsAndFiresTheFirstOfAnOverlap() {
        assertThat(DstPolicy.DEFAULT).isEqualTo(new DstPolicy(DstPolicy.Gap.SHIFT, DstPolicy.Overlap.FIRST));
        assertThat(DstPolicy.DEFAULT).hasToString("gap=shift overlap=first");
    }

    @Test
    void withGapAndWithOverlapChangeOnePartEach() {
        DstPolicy policy = DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP).withOverlap(DstPolicy.Overlap.BOTH);

        assertThat(policy.gap()).isEqualTo(DstPolicy.Gap.SKIP);
        assertThat(policy.overlap()).isEqualTo(DstPolicy.Overlap.BOTH);
        assertThat(policy).hasToString("gap=skip overlap=both");
    }

    @Test
    void nullPartsAreRejectedNamingThem() {
        assertThatNullPointerException().isThrownBy(() -> new DstPolicy(null, DstPolicy.Overlap.FIRST))
                .withMessage("gap must not be null");
        assertThatNullPointerException().isThrownBy(() -> new DstPolicy(DstPolicy.Gap.SHIFT, null))
                .withMessage("overlap must not be null");
    }

    @Nested
    class Gap {

        @ParameterizedTest
        @CsvSource({"shift, SHIFT", "skip, SKIP", "SKIP, SKIP", "' Shift ', SHIFT"})
        void parsesEitherNameInAnyCaseAndTrimmed(String text, DstPolicy.Gap expected) {
            assertThat(DstPolicy.Gap.parse(text)).isEqualTo(expected);
        }

        @Test
        void textIsTheLowerCaseNameParseReadsBack() {
            for (DstPolicy.Gap gap : DstPolicy.Gap.values()) {
                assertThat(gap.text()).isEqualTo(gap.name().toLowerCase(Locale.ROOT));
                assertThat(DstPolicy.Gap.parse(gap.text())).isEqualTo(gap);
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"later", "shift-forward", "first"})
        void unknownValueIsRejectedNamingItAndTheAcceptedOnes(String text) {
            assertThatIllegalArgumentException().isThrownBy(() -> DstPolicy.Gap.parse(text))
                    .withMessage("'" + text + "' is not one of shift, skip");
        }

        @ParameterizedTest
        @NullAndEmptySource
        void missingValueIsRejectedLikeAnUnknownOne(String text) {
            assertThatIllegalArgumentException().isThrownBy(() -> DstPolicy.Gap.parse(text))
                    .withMessage("'" + text + "' is not one of shift, skip");
        }
    }

    @Nested
    class Overlap {

        @ParameterizedTest
        @CsvSource({"first, FIRST", "last, LAST", "both, BOTH", "Both, BOTH"})
        void parsesEachNameInAnyCase(String text, DstPolicy.Overlap expected) {
            assertThat(DstPolicy.Overlap.parse(text)).isEqualTo(expected);
        }

        @Test
        void textIsTheLowerCaseNameParseReadsBack() {
            for (DstPolicy.Overlap overlap : DstPolicy.Overlap.values()) {
                assertThat(overlap.text()).isEqualTo(overlap.name().toLowerCase(Locale.ROOT));
                assertThat(DstPolicy.Overlap.parse(overlap.text())).isEqualTo(overlap);
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"second", "skip", "all"})
        void unknownValueIsRejectedNamingItAndTheAcceptedOnes(String text) {
            assertThatIllegalArgumentException().isThrownBy(() -> DstPolicy.Overlap.parse(text))
                    .withMessage("'" + text + "' is not one of first, last, both");
        }
    }

    @Nested
    class DescribedCron {

        @Test
        void defaultPolicyIsNotWrittenSoExistingDescriptionsStayTheSame() {
            Schedule.Cron cron = Schedule.unixCron("30 2 * * *", PARIS);

            assertThat(cron.dst()).isEqualTo(DstPolicy.DEFAULT);
            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? Europe/Paris");
        }

        @Test
        void defaultPolicySetExplicitlyDescribesAsTheDefault() {
            Schedule.Cron cron = Schedule.unixCron("30 2 * * *", PARIS)
                    .onGap(DstPolicy.Gap.SHIFT).onOverlap(DstPolicy.Overlap.FIRST);

            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? Europe/Paris");
            assertThat(cron).isEqualTo(Schedule.unixCron("30 2 * * *", PARIS));
        }

        @Test
        void nonDefaultGapIsWrittenWithTheWholePolicy() {
            Schedule.Cron cron = Schedule.unixCron("30 2 * * *", PARIS).onGap(DstPolicy.Gap.SKIP);

            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=skip overlap=first");
        }

        @Test
        void nonDefaultOverlapIsWrittenWithTheWholePolicy() {
            Schedule.Cron cron = Schedule.cron("0 30 2 * * ?", PARIS).onOverlap(DstPolicy.Overlap.BOTH);

            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=shift overlap=both");
        }

        @Test
        void policyKeepsTheExpressionZoneAndSource() {
            Schedule.Cron cron = Schedule.unixCron("30 2 * * *", PARIS)
                    .withDst(new DstPolicy(DstPolicy.Gap.SKIP, DstPolicy.Overlap.LAST));

            assertThat(cron.source()).isEqualTo("30 2 * * *");
            assertThat(cron.quartzExpression()).isEqualTo("0 30 2 * * ?");
            assertThat(cron.zone()).isEqualTo(PARIS);
            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=skip overlap=last");
        }

        @Test
        void nullPolicyIsTheDefaultInTheConstructorButRefusedByWithDst() {
            assertThat(new Schedule.Cron("0 30 2 * * ?", PARIS, null, null).dst()).isEqualTo(DstPolicy.DEFAULT);
            assertThatNullPointerException().isThrownBy(() -> Schedule.cron("0 30 2 * * ?", PARIS).withDst(null))
                    .withMessage("dst must not be null");
        }
    }
}
