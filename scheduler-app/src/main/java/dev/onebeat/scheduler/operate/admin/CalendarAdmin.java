package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.scheduler.engine.calendar.Calendar;
import dev.onebeat.scheduler.engine.calendar.CalendarStore;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.calendar.CalendarsProperties;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lists the calendars and creates, changes and deletes those made through the admin API: each change stores the
 * calendar and writes its audit row in one transaction; this replica reads the calendars again at once, the others
 * within their poll interval. A calendar of configuration is changed there, never here; a calendar a job names is
 * not deleted.
 */
@Component
public class CalendarAdmin {

    private final Calendars calendars;
    private final CalendarStore store;
    private final JobRegistry registry;
    private final RuntimeJobStore runtimeJobs;
    private final AuditLog audit;
    private final TransactionTemplate transactions;

    CalendarAdmin(Calendars calendars, CalendarStore store, JobRegistry registry, RuntimeJobStore runtimeJobs,
                  AuditLog audit, TransactionTemplate transactions) {
        this.runtimeJobs = runtimeJobs;
        this.calendars = calendars;
        this.store = store;
        this.registry = registry;
        this.audit = audit;
        this.transactions = transactions;
    }

    /**
     * A calendar as the API shows it.
     *
     * @param name its name
     * @param origin {@code configuration} or {@code admin API}
     * @param zone the zone its days and times are read in
     * @param dates single days
     * @param ranges runs of days, both ends included ({@code 2027-12-24..2028-01-02})
     * @param yearly days of every year ({@code 12-25})
     * @param weekly windows of every week ({@code MON-FRI 08:00-18:00})
     * @param usedBy the jobs registered here that name it
     */
    public record CalendarView(String name, String origin, String zone, List<String> dates, List<String> ranges,
                               List<String> yearly, List<String> weekly, List<String> usedBy) {
    }

    /** @return every calendar, those of configuration first */
    public List<CalendarView> list() {
        return list(null);
    }

    /**
     * @param namespaces the namespaces whose jobs {@code usedBy} names, null for all: another team's job names are
     *     theirs to see
     * @return every calendar, those of configuration first
     */
    public List<CalendarView> list(Collection<String> namespaces) {
        return calendars.all().values().stream().map(calendar -> view(calendar, namespaces)).toList();
    }

    /** @return the calendar of that name, if there is one */
    public Optional<CalendarView> find(String name) {
        return find(name, null);
    }

    /** @return the calendar of that name, if there is one, {@code usedBy} as {@link #list(Collection)} gives it */
    public Optional<CalendarView> find(String name, Collection<String> namespaces) {
        return calendars.find(name).map(calendar -> view(calendar, namespaces));
    }

    /**
     * Creates or replaces a calendar made through the API.
     *
     * @return whether it was created (rather than replaced)
     * @throws JobDefinitionException naming the field at fault
     * @throws AdminConflictException if configuration defines a calendar of that name
     */
    public boolean save(String name, CalendarsProperties.Definition definition) {
        Calendars.parse("", name, definition);
        refuseConfigured(name);
        boolean created = Boolean.TRUE.equals(transactions.execute(status -> {
            store.lock(name);
            Optional<CalendarsProperties.Definition> before = store.find(name);
            store.save(name, definition, Actor.current());
            audit.record(before.isEmpty() ? "calendar.create" : "calendar.update", "calendar", name,
                    before.orElse(null), definition, null);
            return before.isEmpty();
        }));
        calendars.refresh();
        return created;
    }

    /**
     * @throws UnknownCalendarException if no calendar of that name was made through the API
     * @throws AdminConflictException if configuration defines it, or a job names it
     */
    public void delete(String name) {
        refuseConfigured(name);
        transactions.executeWithoutResult(status -> {
            // the lock a job naming the calendar takes to be stored: none is stored between the check and the delete
            store.lock(name);
            CalendarsProperties.Definition before = store.find(name).orElseThrow(() -> new UnknownCalendarException(name));
            Set<String> users = new TreeSet<>(usedBy(name));
            users.addAll(runtimeJobs.namingCalendar(name));
            if (!users.isEmpty()) {
                List<String> named = List.copyOf(users);
                throw new AdminConflictException("calendar '" + name + "' is named by job" + (named.size() == 1 ? " "
                        : "s ") + String.join(", ", named.subList(0, Math.min(10, named.size())))
                        + (named.size() > 10 ? " and " + (named.size() - 10) + " more" : "")
                        + "; take it out of their calendars first");
            }
            store.delete(name);
            audit.record("calendar.delete", "calendar", name, before, null, null);
        });
        calendars.refresh();
    }

    private void refuseConfigured(String name) {
        if (calendars.isConfigured(name)) {
            throw new AdminConflictException("calendar '" + name + "' is defined in configuration "
                    + "(onebeat.calendars." + name + "); change it there");
        }
    }

    private List<String> usedBy(String name) {
        return usedBy(name, null);
    }

    private List<String> usedBy(String name, Collection<String> namespaces) {
        List<String> users = new ArrayList<>();
        for (RegisteredJob job : registry.all()) {
            if (job.job().calendars().calendars().contains(name)
                    && (namespaces == null || namespaces.contains(job.job().namespace()))) {
                users.add(job.name());
            }
        }
        // the registry walks its runtime jobs in no particular order
        users.sort(null);
        return users;
    }

    private CalendarView view(Calendar calendar, Collection<String> namespaces) {
        return new CalendarView(calendar.name(), calendars.isConfigured(calendar.name()) ? "configuration" : "admin API",
                calendar.zone().getId(), calendar.dates().stream().map(Object::toString).toList(),
                calendar.ranges().stream().map(Object::toString).toList(),
                calendar.yearly().stream().map(day -> day.toString().substring(2)).toList(),
                calendar.weekly().stream().map(Object::toString).toList(), usedBy(calendar.name(), namespaces));
    }
}
