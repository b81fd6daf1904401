package dev.onebeat.scheduler.engine.calendar;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Every statement on {@code onebeat_calendar}: the calendars made through the admin API. */
@Component
public class CalendarStore {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    CalendarStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** @return every stored calendar's definition, by name, in name order */
    public Map<String, CalendarsProperties.Definition> all() {
        Map<String, CalendarsProperties.Definition> calendars = new LinkedHashMap<>();
        jdbc.sql("SELECT name, definition::text FROM onebeat_calendar ORDER BY name")
                .query((rs, row) -> calendars.put(rs.getString(1), read(rs.getString(2)))).list();
        return calendars;
    }

    /** @return the stored calendar's definition, if there is one */
    public Optional<CalendarsProperties.Definition> find(String name) {
        return jdbc.sql("SELECT definition::text FROM onebeat_calendar WHERE name = ?").param(name)
                .query((rs, row) -> read(rs.getString(1))).optional();
    }

    /** Stores a calendar, replacing one of the same name, in the caller's transaction. */
    public void save(String name, CalendarsProperties.Definition definition, String actor) {
        jdbc.sql("""
                        INSERT INTO onebeat_calendar (name, definition, updated_by) VALUES (?, ?::jsonb, ?)
                        ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, updated_at = now(),
                                                         updated_by = excluded.updated_by""")
                .params(name, json.writeValueAsString(definition), actor).update();
    }

    /** @return whether a calendar of that name was stored and is removed */
    public boolean delete(String name) {
        return jdbc.sql("DELETE FROM onebeat_calendar WHERE name = ?").param(name).update() > 0;
    }

    /** Takes the cluster-wide change lock of one calendar until the caller's transaction ends. */
    public void lock(String name) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))").param("onebeat.calendar:" + name)
                .query((rs, row) -> true).single();
    }

    private CalendarsProperties.Definition read(String text) {
        return json.readValue(text, CalendarsProperties.Definition.class);
    }
}
