package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

class TestDatabaseTest {

    @Test
    void toStringNeverShowsThePassword() {
        TestDatabase database = new TestDatabase("db", "jdbc:postgresql://h/db?password=inurl", "u", "secret");

        assertThat(database.toString())
                .contains("name=db", "username=u", "password=***")
                .doesNotContain("secret", "inurl");
    }

    @Test
    void urlWithCredentialsAddsUserAndPassword() {
        TestDatabase database = new TestDatabase("db", "jdbc:postgresql://h/db?ssl=true", "u", "p w");

        assertThat(database.jdbcUrlWithCredentials()).isEqualTo("jdbc:postgresql://h/db?ssl=true&user=u&password=p+w");
    }

    @Test
    void urlWithCredentialsLeavesOutAnEmptyPassword() {
        TestDatabase database = new TestDatabase("db", "jdbc:postgresql://h/db", "u", "");

        assertThat(database.jdbcUrlWithCredentials()).isEqualTo("jdbc:postgresql://h/db?user=u");
    }

    @Test
    void rejectsAUrlOfAnotherDriver() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TestDatabase("db", "jdbc:h2:mem:db", "u", ""))
                .withMessageContaining("jdbcUrl");
    }

    @Test
    void rejectsBlankNameAndUser() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TestDatabase(" ", "jdbc:postgresql://h/db", "u", ""))
                .withMessageContaining("name");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new TestDatabase("db", "jdbc:postgresql://h/db", "", ""))
                .withMessageContaining("username");
    }

    @Test
    void rejectsAMissingPassword() {
        assertThatNullPointerException()
                .isThrownBy(() -> new TestDatabase("db", "jdbc:postgresql://h/db", "u", null))
                .withMessageContaining("password");
    }
}
