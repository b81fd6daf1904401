package dev.onebeat.scheduler.engine.cluster;

import java.time.zone.ZoneRulesProvider;

/**
 * The version of the time-zone database (IANA tzdb) this JVM's {@code java.time} uses, such as
 * {@code 2025a}. It comes with the JDK (or its vendor's tzdata updates), not with onebeat: two replicas
 * on different versions can turn the same cron and zone into different instants once the rules of a zone
 * changed between the versions.
 */
public final class Tzdata {

    private Tzdata() {
    }

    /** @return the version of the rules the JDK's provider gives for {@code UTC}, the provider's version */
    public static String version() {
        return ZoneRulesProvider.getVersions("UTC").lastKey();
    }
}
