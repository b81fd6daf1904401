package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

    @Nested
    class WithDatabase {

        @Test
        void replacesTheDatabaseAndKeepsHostPortAndParameters() {
            assertThat(JdbcUrls.withDatabase("jdbc:postgresql://db.example:6543/postgres?user=admin&ssl=true", "other"))
                    .isEqualTo("jdbc:postgresql://db.example:6543/other?user=admin&ssl=true");
        }

        @Test
        void addsTheDatabaseWhenTheUrlNamesNone() {
            assertThat(JdbcUrls.withDatabase("jdbc:postgresql://127.0.0.1:5432?user=postgres", "other"))
                    .isEqualTo("jdbc:postgresql://127.0.0.1:5432/other?user=postgres");
            assertThat(JdbcUrls.withDatabase("jdbc:postgresql://127.0.0.1:5432/", "other"))
                    .isEqualTo("jdbc:postgresql://127.0.0.1:5432/other");
        }

        @Test
        void keepsEveryHostOfAMultiHostUrl() {
            assertThat(JdbcUrls.withDatabase("jdbc:postgresql://a:5432,b:5433/postgres?targetServerType=primary", "x"))
                    .isEqualTo("jdbc:postgresql://a:5432,b:5433/x?targetServerType=primary");
        }

        @Test
        void replacesTheDatabaseOfTheShortForm() {
            assertThat(JdbcUrls.withDatabase("jdbc:postgresql:postgres?user=me", "other"))
                    .isEqualTo("jdbc:postgresql:other?user=me");
        }

        @Test
        void rejectsOtherDrivers() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> JdbcUrls.withDatabase("jdbc:mysql://h/db?password=secret", "x"))
                    .withMessageContaining("password=***")
                    .withMessageNotContaining("secret");
        }
    }

    @Test
    void databaseIsReadFromThePathAndAbsentWithoutOne() {
        assertThat(JdbcUrls.database("jdbc:postgresql://h:5432/app?user=u")).contains("app");
        assertThat(JdbcUrls.database("jdbc:postgresql://h:5432/?user=u")).isEmpty();
        assertThat(JdbcUrls.database("jdbc:postgresql://h:5432")).isEmpty();
    }

    @Test
    void parameterIsDecodedAndMatchedByExactName() {
        String url = "jdbc:postgresql://h/db?username=no&user=me&password=p%40ss%26word&flag";
        assertThat(JdbcUrls.parameter(url, "user")).contains("me");
        assertThat(JdbcUrls.parameter(url, "password")).contains("p@ss&word");
        assertThat(JdbcUrls.parameter(url, "flag")).contains("");
        assertThat(JdbcUrls.parameter(url, "ssl")).isEmpty();
    }

    @Test
    void missingParametersAreAppendedEncodedAndPresentOnesKept() {
        Map<String, String> credentials = new LinkedHashMap<>();
        credentials.put("user", "other");
        credentials.put("password", "a&b c");
        assertThat(JdbcUrls.withMissingParameters("jdbc:postgresql://h/db?user=me", credentials))
                .isEqualTo("jdbc:postgresql://h/db?user=me&password=a%26b+c");
        assertThat(JdbcUrls.withMissingParameters("jdbc:postgresql://h/db", credentials))
                .isEqualTo("jdbc:postgresql://h/db?user=other&password=a%26b+c");
    }

    @Test
    void redactionMasksOnlyThePassword() {
        assertThat(JdbcUrls.redacted("jdbc:postgresql://h/db?user=me&password=secret&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=me&password=***&ssl=true");
    }
}
