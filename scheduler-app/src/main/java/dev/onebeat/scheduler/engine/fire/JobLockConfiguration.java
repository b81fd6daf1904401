package dev.onebeat.scheduler.engine.fire;

import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** The ShedLock provider every fire uses, on the lock table {@link JobLockTable} owns. */
@Configuration(proxyBeanMethods = false)
class JobLockConfiguration {

    @Bean
    LockProvider lockProvider(DataSource dataSource) {
        return new RowsComeAndGo(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(dataSource))
                .withTableName(JobLockTable.TABLE)
                // lock expiry is judged by the database's clock, so a replica with a skewed clock cannot steal a lock
                .usingDbTime()
                .build());
    }

    /**
     * ShedLock's JDBC provider, made to ask the table rather than its memory whether a lock's row exists.
     *
     * <p>ShedLock remembers each lock name whose row it inserted (a weak set, which forgets a name at a garbage
     * collection once nothing else refers to it) and from then on only updates that row. onebeat deletes lock rows: a
     * per-instant lock's row when its fire ends ({@link JobLockTable#release}), and retention the rows of jobs no
     * longer in the catalog and of ended backfills ({@link JobLockTable#purgeEnded}). A name still remembered after
     * its row went finds nothing to update and reads as held, on this replica only, until a collection happens to
     * forget it: a retry of an instant under overlap policy {@code allow}, or a job created again under a deleted
     * job's name, would wait out its {@code lockAtMostFor} for a lock nobody holds, and then not fire.
     *
     * <p>So the memory is cleared before each lock. That costs nothing when the lock is free: on PostgreSQL with
     * database time ShedLock's insert is an upsert that also takes an expired row, one statement as the update was.
     * A lock found held costs more than it did: the upsert locks the held row before its condition turns it down
     * (a transaction id and a row lock), and ShedLock then runs its update, which finds it held too. There is no way
     * to drop one name from ShedLock's memory, nor to reach its storage without it, hence the whole clear. A clear
     * beside another thread's lock is harmless: whichever of the two statements a lock runs, the table decides.
     */
    static final class RowsComeAndGo extends JdbcTemplateLockProvider {

        RowsComeAndGo(Configuration configuration) {
            super(configuration);
        }

        @Override
        protected boolean doLock(LockConfiguration configuration) {
            clearCache();
            return super.doLock(configuration);
        }
    }
}
