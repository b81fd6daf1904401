package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.quartz.JobPersistenceException;
import org.quartz.impl.jdbcjobstore.LockException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

class FireFaultsTest {

    @Test
    void aFailureOfAConnectionATransactionOrQuartzsStoreIsFromTheDatabaseAJobsOwnExceptionIsNot() {
        assertThat(FireFaults.fromDatabase(new DataAccessResourceFailureException("terminating connection"))).isTrue();
        assertThat(FireFaults.fromDatabase(new CannotCreateTransactionException("no connection"))).isTrue();
        assertThat(FireFaults.fromDatabase(new LockException("Failure obtaining db row lock"))).isTrue();
        assertThat(FireFaults.fromDatabase(new JobPersistenceException("Couldn't acquire next trigger"))).isTrue();
        assertThat(FireFaults.fromDatabase(new IllegalStateException("wrapped", new SQLException("closed")))).isTrue();
        assertThat(FireFaults.fromDatabase(new IllegalStateException("the job's own failure"))).isFalse();
        assertThat(FireFaults.fromDatabase(null)).isFalse();
    }
}
