package dev.onebeat.scheduler.boot.embedded;

/** No database is configured and the jar carries no embedded PostgreSQL binaries for this platform. */
class EmbeddedBinariesMissingException extends IllegalStateException {

    /** The platforms whose binaries {@code scheduler-app.jar} carries, as the binaries' artifact ids name them. */
    static final String PLATFORMS = "linux-amd64, linux-arm64v8, darwin-amd64, darwin-arm64v8, windows-amd64";

    EmbeddedBinariesMissingException(Throwable cause) {
        super("no database is configured (spring.datasource.url is unset), so onebeat would start its embedded "
                + "PostgreSQL, but this jar carries no PostgreSQL binaries for " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch"), cause);
    }
}
