package dev.onebeat.worker.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class StepsIT {

    private static HikariDataSource dataSource;
    private static Effects effects;

    @BeforeAll
    static void migrate(TestDatabase database) throws Exception {
        dataSource = WorkerSchema.migrated(database);
        effects = new Effects(dataSource);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @Test
    void retryAfterSecondStepFailedSkipsTheFirstAndRunsTheRest() throws Exception {
        IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "checkout", WorkerMetrics.NOOP);
        List<String> ran = new ArrayList<>();
        boolean[] failStep2 = {true};
        Runnable deliver = () -> {
            Steps steps = Steps.of(consumer, "order-7");
            steps.run("reserve", tx -> {
                ran.add("reserve");
                Effects.apply(tx, "order-7#reserve");
            });
            steps.run("charge", tx -> {
                ran.add("charge");
                Effects.apply(tx, "order-7#charge");
                if (failStep2[0]) {
                    throw new IllegalStateException("payment gateway timeout");
                }
            });
            steps.run("ship", tx -> {
                ran.add("ship");
                Effects.apply(tx, "order-7#ship");
            });
        };

        assertThatThrownBy(deliver::run).hasMessage("payment gateway timeout");
        failStep2[0] = false;
        deliver.run();

        assertThat(ran).containsExactly("reserve", "charge", "charge", "ship");
        assertThat(effects.count("order-7#reserve")).isEqualTo(1);
        assertThat(effects.count("order-7#charge")).isEqualTo(1);
        assertThat(effects.count("order-7#ship")).isEqualTo(1);
        assertThat(effects.journalRows("order-7#charge")).isEqualTo(1);
    }

    @Test
    void stepNameWithHashIsRefusedSoKeysCannotCollide() {
        Steps steps = Steps.of(IdempotentConsumer.of(dataSource, "checkout", WorkerMetrics.NOOP), "order-8");

        assertThatThrownBy(() -> steps.run("a#b", tx -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("step must be non-blank and without '#', was 'a#b'");
    }
}
