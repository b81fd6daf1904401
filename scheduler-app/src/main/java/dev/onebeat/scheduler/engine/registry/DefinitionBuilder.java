package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.scheduler.engine.registry.JobsProperties.Alerts;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Options;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Retry;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link Definition} naming each field it sets; every field left unset stays null, which a
 * definition reads as "keep the default" (or, in a reschedule, "not changed"). Nothing is checked here:
 * {@link DeclarativeJobs} reports every problem with the path and the field, as it does for configuration.
 *
 * @see Definition#builder(String)
 * @see Definition#toBuilder()
 */
public final class DefinitionBuilder {

    private String name;
    private String cron;
    private String every;
    private String zone;
    private String task;
    private String queue;
    private List<Object> args;
    private Map<String, Object> kwargs;
    private String misfire;
    private String lockAtMostFor;
    private String gap;
    private String overlap;
    private Retry retry;
    private String catchUpWindow;
    private Integer maxCatchUp;
    private String overlapPolicy;
    private Alerts alerts;
    private Options options;
    private String jitter;
    private String spread;
    private JobsProperties.JobCalendars calendars;
    private String activeFrom;
    private String activeUntil;
    private String namespace;

    DefinitionBuilder() {
    }

    DefinitionBuilder(Definition d) {
        this.name = d.name();
        this.cron = d.cron();
        this.every = d.every();
        this.zone = d.zone();
        this.task = d.task();
        this.queue = d.queue();
        this.args = d.args();
        this.kwargs = d.kwargs();
        this.misfire = d.misfire();
        this.lockAtMostFor = d.lockAtMostFor();
        this.gap = d.gap();
        this.overlap = d.overlap();
        this.retry = d.retry();
        this.catchUpWindow = d.catchUpWindow();
        this.maxCatchUp = d.maxCatchUp();
        this.overlapPolicy = d.overlapPolicy();
        this.alerts = d.alerts();
        this.options = d.options();
        this.jitter = d.jitter();
        this.spread = d.spread();
        this.calendars = d.calendars();
        this.activeFrom = d.activeFrom();
        this.activeUntil = d.activeUntil();
        this.namespace = d.namespace();
    }

    public DefinitionBuilder name(String name) {
        this.name = name;
        return this;
    }

    public DefinitionBuilder cron(String cron) {
        this.cron = cron;
        return this;
    }

    public DefinitionBuilder every(String every) {
        this.every = every;
        return this;
    }

    public DefinitionBuilder zone(String zone) {
        this.zone = zone;
        return this;
    }

    /**
     * Sets the whole schedule at once, as a reschedule replaces it: fields passed null are unset.
     *
     * @return this builder, with {@code cron}, {@code every}, {@code zone}, {@code gap} and {@code overlap} set
     */
    public DefinitionBuilder schedule(String cron, String every, String zone, String gap, String overlap) {
        return cron(cron).every(every).zone(zone).gap(gap).overlap(overlap);
    }

    public DefinitionBuilder task(String task) {
        this.task = task;
        return this;
    }

    public DefinitionBuilder queue(String queue) {
        this.queue = queue;
        return this;
    }

    public DefinitionBuilder args(List<Object> args) {
        this.args = args;
        return this;
    }

    public DefinitionBuilder kwargs(Map<String, Object> kwargs) {
        this.kwargs = kwargs;
        return this;
    }

    public DefinitionBuilder misfire(String misfire) {
        this.misfire = misfire;
        return this;
    }

    public DefinitionBuilder lockAtMostFor(String lockAtMostFor) {
        this.lockAtMostFor = lockAtMostFor;
        return this;
    }

    public DefinitionBuilder gap(String gap) {
        this.gap = gap;
        return this;
    }

    public DefinitionBuilder overlap(String overlap) {
        this.overlap = overlap;
        return this;
    }

    public DefinitionBuilder retry(Retry retry) {
        this.retry = retry;
        return this;
    }

    public DefinitionBuilder catchUpWindow(String catchUpWindow) {
        this.catchUpWindow = catchUpWindow;
        return this;
    }

    public DefinitionBuilder maxCatchUp(Integer maxCatchUp) {
        this.maxCatchUp = maxCatchUp;
        return this;
    }

    public DefinitionBuilder overlapPolicy(String overlapPolicy) {
        this.overlapPolicy = overlapPolicy;
        return this;
    }

    public DefinitionBuilder alerts(Alerts alerts) {
        this.alerts = alerts;
        return this;
    }

    public DefinitionBuilder options(Options options) {
        this.options = options;
        return this;
    }

    public DefinitionBuilder jitter(String jitter) {
        this.jitter = jitter;
        return this;
    }

    public DefinitionBuilder spread(String spread) {
        this.spread = spread;
        return this;
    }

    public DefinitionBuilder calendars(JobsProperties.JobCalendars calendars) {
        this.calendars = calendars;
        return this;
    }

    public DefinitionBuilder activeFrom(String activeFrom) {
        this.activeFrom = activeFrom;
        return this;
    }

    public DefinitionBuilder activeUntil(String activeUntil) {
        this.activeUntil = activeUntil;
        return this;
    }

    public DefinitionBuilder namespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    public Definition build() {
        return new Definition(name, cron, every, zone, task, queue, args, kwargs, misfire, lockAtMostFor, gap, overlap,
                retry, catchUpWindow, maxCatchUp, overlapPolicy, alerts, options, jitter, spread, calendars,
                activeFrom, activeUntil, namespace);
    }
}
