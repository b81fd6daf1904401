package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatabaseNamesTest {

    @Test
    void nameIsPrefixLowerCaseClassNameAndEightHexDigits() {
        assertThat(DatabaseNames.forTestClass(DatabaseNamesTest.class)).matches("onebeat_t_databasenamestest_[0-9a-f]{8}");
    }

    @Test
    void longClassNamesAreCutToTwentyCharacters() {
        assertThat(DatabaseNames.forTestClass(AVeryLongTestClassNameIndeedIT.class))
                .matches("onebeat_t_averylongtestclassna_[0-9a-f]{8}");
    }

    @Test
    void charactersOutsideLettersAndDigitsAreLeftOut() {
        assertThat(DatabaseNames.forTestClass(Under_Score$Dollar.class)).matches("onebeat_t_underscoredollar_[0-9a-f]{8}");
    }

    @Test
    void anonymousClassesGetAPlaceholder() {
        Object anonymous = new Object() {
        };
        assertThat(DatabaseNames.forTestClass(anonymous.getClass())).matches("onebeat_t_class_[0-9a-f]{8}");
    }

    @Test
    void twoNamesForTheSameClassDiffer() {
        assertThat(DatabaseNames.forTestClass(DatabaseNamesTest.class))
                .isNotEqualTo(DatabaseNames.forTestClass(DatabaseNamesTest.class));
    }

    @Test
    void namesFitPostgresIdentifiers() {
        assertThat(DatabaseNames.forTestClass(AVeryLongTestClassNameIndeedIT.class)).hasSizeLessThanOrEqualTo(63);
    }

    static class AVeryLongTestClassNameIndeedIT {
    }

    static class Under_Score$Dollar {
    }
}
