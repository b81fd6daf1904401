package dev.onebeat.scheduler.web.api;

import java.time.Instant;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * Instants a request may name: within the years 1 to 9999, what PostgreSQL timestamps and Quartz's
 * dates hold. {@code Instant} itself parses years of a million, which would fail deep down as a 500.
 */
final class InstantParameters {

    static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private InstantParameters() {
    }

    /** @throws ResponseStatusException 400 naming the parameter when {@code value} is out of range */
    static void check(String parameter, Instant value) {
        if (value != null && (value.isBefore(EARLIEST) || value.isAfter(LATEST))) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, parameter + ": " + value
                    + " is out of range; use an instant between " + EARLIEST + " and " + LATEST);
        }
    }
}
