package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class EffectOutboxIT {

    private static HikariDataSource dataSource;
    private static EffectRows rows;
    private HttpStub stub;
    private EffectSender sender;

    @BeforeAll
    static void migrate(TestDatabase database) {
        dataSource = WorkerSchema.migrated(database);
        rows = new EffectRows(dataSource);
    }

    @AfterAll
    static void closeDataSource() {
        dataSource.close();
    }

    @BeforeEach
    void startStub() throws Exception {
        stub = new HttpStub();
        sender = EffectSender.builder(dataSource)
                .delivery("email", new HttpEffectDelivery(Duration.ofSeconds(5)))
                .build();
    }

    @AfterEach
    void stopStubAndForgetEffects() throws Exception {
        stub.close();
        // the tests share one database; a pending leftover would be delivered by the next test's sender
        rows.execute("DELETE FROM onebeat_effect");
    }

    @Test
    void effectRecordedInRolledBackTransactionIsNeverSent() throws Exception {
        try (Connection transaction = dataSource.getConnection()) {
            transaction.setAutoCommit(false);
            EffectOutbox.record(transaction, email("order:1/confirmation"));
            transaction.rollback();
        }

        assertThat(sender.sendDue()).isZero();
        assertThat(stub.requests()).isEmpty();
        assertThat(rows.row("order:1/confirmation")).isNull();
    }

    @Test
    void committedEffectIsSentOnceWithItsKeyAsIdempotencyKey() throws Exception {
        rows.recordCommitted(email("order:2/confirmation"));

        assertThat(sender.sendDue()).isEqualTo(1);
        assertThat(sender.sendDue()).isZero();

        assertThat(stub.requests()).containsExactly(new HttpStub.Request("order:2/confirmation", "application/json",
                "{\"to\":\"order:2/confirmation\"}"));
        assertThat(rows.row("order:2/confirmation")).isEqualTo(new EffectRows.Row("sent", 1, null, true));
    }

    @Test
    void sameKeyRecordedInTwoTransactionsLeavesOneRow() throws Exception {
        Effect first = email("order:3/confirmation");
        Effect second = new Effect(first.idempotencyKey(), "email", stub.url(), "{\"to\":\"someone else\"}");
        boolean[] inserted = new boolean[2];
        try (Connection one = dataSource.getConnection(); Connection two = dataSource.getConnection()) {
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            inserted[0] = EffectOutbox.record(one, first);
            one.commit();
            inserted[1] = EffectOutbox.record(two, second);
            two.commit();
        }

        assertThat(inserted).containsExactly(true, false);
        assertThat(rows.count("idempotency_key = 'order:3/confirmation'")).isEqualTo(1);
        sender.sendDue();
        assertThat(stub.requests()).extracting(HttpStub.Request::body).containsExactly(first.payload());
    }

    private Effect email(String key) {
        return new Effect(key, "email", stub.url(), "{\"to\":\"" + key + "\"}");
    }
}
