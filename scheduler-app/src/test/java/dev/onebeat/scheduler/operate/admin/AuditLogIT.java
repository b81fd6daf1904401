package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.transaction.support.TransactionTemplate;

/** Audit rows commit and roll back with the change they record, and name who made it. */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class AuditLogIT {

    @Autowired
    AuditLog audit;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    JdbcClient jdbc;


    @Test
    void auditRowOfAChangeThatRollsBackIsNotWritten() {
        transactions.executeWithoutResult(status -> {
            audit.record("job.pause", "job", "rolled-back", Map.of("paused", false), Map.of("paused", true), null);
            status.setRollbackOnly();
        });

        assertThat(audit.page("rolled-back", null, null, 10, 0)).isEmpty();
    }

    @Test
    void auditOutsideATransactionIsRefused() {
        assertThatThrownBy(() -> audit.record("job.pause", "job", "alone", null, Map.of("paused", true), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("audit of job.pause alone must run in the change's transaction");
    }

    @Test
    void auditNamesTheAuthenticatedUserAndFiltersByActor() {
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("alice", "n/a"));
        try {
            transactions.executeWithoutResult(status ->
                    audit.record("task.retry", "task", "42", Map.of("status", "dead"), Map.of("status", "pending"),
                            null));
        } finally {
            SecurityContextHolder.clearContext();
        }

        assertThat(audit.page(null, "alice", null, 10, 0)).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("alice");
            assertThat(entry.target()).isEqualTo("42");
            assertThat(entry.before().toString()).isEqualTo("{\"status\":\"dead\"}");
        });
    }
}
