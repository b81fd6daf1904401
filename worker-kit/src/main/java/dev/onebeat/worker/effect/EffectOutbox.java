package dev.onebeat.worker.effect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Records effects in the caller's transaction; an {@link EffectSender} delivers them once committed. */
public final class EffectOutbox {

    // UNIQUE(idempotency_key) is the one-effect-per-key guard: a redelivered handler records nothing new
    private static final String INSERT = """
            INSERT INTO onebeat_effect (idempotency_key, channel, destination, payload)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (idempotency_key) DO NOTHING
            """;

    private EffectOutbox() {
    }

    /**
     * Inserts the effect on {@code transaction}, the connection the handler does its database work
     * on, without committing: the effect exists exactly when that work commits.
     *
     * <p>When the key was already recorded (a redelivery, a retried handler) the existing effect is
     * kept unchanged, whatever its state, and nothing is inserted.
     *
     * @return whether a new effect was inserted
     * @throws SQLException as the driver throws it; the transaction is then unusable and must roll back
     */
    public static boolean record(Connection transaction, Effect effect) throws SQLException {
        try (PreparedStatement insert = transaction.prepareStatement(INSERT)) {
            insert.setString(1, effect.idempotencyKey());
            insert.setString(2, effect.channel());
            insert.setString(3, effect.destination());
            insert.setString(4, effect.payload());
            return insert.executeUpdate() == 1;
        }
    }
}
