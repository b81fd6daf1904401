package dev.onebeat.scheduler.engine.quartz;

import java.util.Date;
import org.quartz.impl.jdbcjobstore.SimplePropertiesTriggerPersistenceDelegateSupport;
import org.quartz.impl.jdbcjobstore.SimplePropertiesTriggerProperties;
import org.quartz.spi.OperableTrigger;

/**
 * Stores a {@link TimetableTrigger}'s schedule text in {@code QRTZ_SIMPROP_TRIGGERS.STR_PROP_1}, and the
 * range of its last misfire in {@code LONG_PROP_1} and {@code LONG_PROP_2} (epoch milliseconds, 0 for none), Quartz's
 * extension point for trigger types of its users (registered with
 * {@code org.quartz.jobStore.driverDelegateInitString=triggerPersistenceDelegateClasses=…}). A plain
 * column, not a serialized Java object, so the row reads the same to every version of onebeat.
 */
public final class TimetableTriggerPersistence extends SimplePropertiesTriggerPersistenceDelegateSupport {

    @Override
    public boolean canHandleTriggerType(OperableTrigger trigger) {
        return trigger instanceof TimetableTrigger;
    }

    @Override
    public String getHandledTriggerTypeDiscriminator() {
        return TimetableTrigger.TYPE;
    }

    @Override
    protected SimplePropertiesTriggerProperties getTriggerProperties(OperableTrigger trigger) {
        SimplePropertiesTriggerProperties properties = new SimplePropertiesTriggerProperties();
        TimetableTrigger timetable = (TimetableTrigger) trigger;
        properties.setString1(timetable.schedule());
        properties.setLong1(millis(timetable.missedFrom()));
        properties.setLong2(millis(timetable.missedBy()));
        return properties;
    }

    @Override
    protected TriggerPropertyBundle getTriggerPropertyBundle(SimplePropertiesTriggerProperties properties) {
        // the misfire instruction lives in QRTZ_TRIGGERS and is set on the trigger after it is built
        return new TriggerPropertyBundle(new TimetableScheduleBuilder(properties.getString1(),
                TimetableTrigger.MISFIRE_FIRE_ONCE_NOW, date(properties.getLong1()), date(properties.getLong2())),
                null, null);
    }

    private static long millis(Date date) {
        return date == null ? 0 : date.getTime();
    }

    private static Date date(long millis) {
        return millis == 0 ? null : new Date(millis);
    }
}
