package dev.onebeat.scheduler.engine.fire;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;

/**
 * The server-side bound of a fire's transaction. Every session starts with a short
 * {@code idle_in_transaction_session_timeout} (the pool's {@code options}), so that a replica gone silent inside a
 * transaction cannot hold its locks for long; a fire's transaction is idle on the server while the job's code runs,
 * which may last up to the job's {@code lockAtMostFor}. This raises the bound for the fire's transaction alone
 * ({@code set_config(..., true)} is {@code SET LOCAL}): the next transaction on the connection has the session's.
 */
final class FireSession {

    private static final SQLExceptionSubclassTranslator TRANSLATOR = new SQLExceptionSubclassTranslator();

    private FireSession() {
    }

    /** Lets the current transaction of {@code dataSource} stay idle up to {@code idle} between its statements. */
    static void allowIdle(DataSource dataSource, Duration idle) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT set_config('idle_in_transaction_session_timeout', ?, true)")) {
            statement.setString(1, Math.max(1, idle.toMillis()) + "ms");
            statement.execute();
        } catch (SQLException e) {
            throw TRANSLATOR.translate("allowIdle", null, e);
        }
    }
}
