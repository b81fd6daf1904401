package dev.onebeat.worker.effect;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import javax.sql.DataSource;

/** The sender's statements on {@code onebeat_effect}, each in a transaction of its own. */
final class EffectStore {

    // SKIP LOCKED: concurrent senders claim disjoint batches; an expired lease hands a crashed sender's effects on
    // Two claims, not one with an OR: each matches one partial index (onebeat_effect_lease_idx,
    // onebeat_effect_due_idx); an OR of both would scan the whole table on every poll.
    // SKIP LOCKED hands each row to one sender.
    private static final String CLAIM_EXPIRED = """
            UPDATE onebeat_effect
               SET status = 'sending', locked_by = ?, locked_until = now() + ? * interval '1 millisecond',
                   attempts = attempts + 1
             WHERE id IN (SELECT id FROM onebeat_effect
                           WHERE status = 'sending' AND locked_until < now() AND channel = ANY (?)
                           ORDER BY locked_until
                           LIMIT ?
                           FOR UPDATE SKIP LOCKED)
            RETURNING id, idempotency_key, channel, destination, payload, attempts
            """;
    private static final String CLAIM_DUE = """
            UPDATE onebeat_effect
               SET status = 'sending', locked_by = ?, locked_until = now() + ? * interval '1 millisecond',
                   attempts = attempts + 1
             WHERE id IN (SELECT id FROM onebeat_effect
                           WHERE status = 'pending' AND available_at <= now() AND channel = ANY (?)
                           ORDER BY available_at
                           LIMIT ?
                           FOR UPDATE SKIP LOCKED)
            RETURNING id, idempotency_key, channel, destination, payload, attempts
            """;

    // locked_by: a sender whose lease was taken over no longer touches the effect
    private static final String RENEW = """
            UPDATE onebeat_effect SET locked_until = now() + ? * interval '1 millisecond'
             WHERE id = ? AND status = 'sending' AND locked_by = ?
            """;

    // sent only after the external call succeeded, and only by the lease holder
    private static final String MARK_SENT = """
            UPDATE onebeat_effect SET status = 'sent', sent_at = now(), locked_by = NULL, locked_until = NULL
             WHERE id = ? AND status = 'sending' AND locked_by = ?
            """;

    private static final String RESCHEDULE = """
            UPDATE onebeat_effect
               SET status = 'pending', available_at = now() + ? * interval '1 millisecond', last_error = ?,
                   locked_by = NULL, locked_until = NULL
             WHERE id = ? AND status = 'sending' AND locked_by = ?
            """;

    private static final String MARK_DEAD = """
            UPDATE onebeat_effect SET status = 'dead', last_error = ?, locked_by = NULL, locked_until = NULL
             WHERE id = ? AND status = 'sending' AND locked_by = ?
            """;

    // hands back effects claimed but never attempted, without spending an attempt
    private static final String RELEASE = """
            UPDATE onebeat_effect
               SET status = 'pending', attempts = attempts - 1, locked_by = NULL, locked_until = NULL
             WHERE id = ANY (?) AND status = 'sending' AND locked_by = ?
            """;

    private static final int MAX_ERROR_LENGTH = 4000;

    private final DataSource dataSource;
    private final String senderId;
    private final long leaseMillis;

    EffectStore(DataSource dataSource, String senderId, Duration lease) {
        this.dataSource = dataSource;
        this.senderId = senderId;
        this.leaseMillis = lease.toMillis();
    }

    List<PendingEffect> claim(Collection<String> channels, int limit) {
        try (Connection connection = dataSource.getConnection()) {
            Array channelArray = connection.createArrayOf("varchar", channels.toArray());
            List<PendingEffect> claimed = new ArrayList<>();
            claim(connection, CLAIM_EXPIRED, channelArray, limit, claimed);
            if (claimed.size() < limit) {
                claim(connection, CLAIM_DUE, channelArray, limit - claimed.size(), claimed);
            }
            claimed.sort(Comparator.comparingLong(PendingEffect::id));
            return claimed;
        } catch (SQLException e) {
            throw new IllegalStateException("could not claim effects, sender=" + senderId, e);
        }
    }

    private void claim(Connection connection, String sql, Array channels, int limit, List<PendingEffect> into)
            throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(sql)) {
            claim.setString(1, senderId);
            claim.setLong(2, leaseMillis);
            claim.setArray(3, channels);
            claim.setInt(4, limit);
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    into.add(new PendingEffect(rows.getLong(1), rows.getString(2), rows.getString(3),
                            rows.getString(4), rows.getString(5), rows.getInt(6)));
                }
            }
        }
    }

    boolean renew(long id) {
        return update(RENEW, "renew the lease of", id, leaseMillis, id, senderId);
    }

    boolean markSent(long id) {
        return update(MARK_SENT, "mark sent", id, id, senderId);
    }

    boolean reschedule(long id, Duration delay, String error) {
        return update(RESCHEDULE, "reschedule", id, delay.toMillis(), truncated(error), id, senderId);
    }

    boolean markDead(long id, String error) {
        return update(MARK_DEAD, "mark dead", id, truncated(error), id, senderId);
    }

    void release(List<Long> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement release = connection.prepareStatement(RELEASE)) {
            release.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            release.setString(2, senderId);
            release.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not release effects " + ids + ", sender=" + senderId, e);
        }
    }

    private boolean update(String sql, String action, long id, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                update.setObject(i + 1, parameters[i]);
            }
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("could not " + action + " effect id=" + id + ", sender=" + senderId, e);
        }
    }

    private static String truncated(String error) {
        return error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH);
    }
}
