package dev.onebeat.scheduler.engine.quartz;

import java.io.InputStream;
import java.net.URL;
import java.util.Map;
import org.quartz.spi.ClassLoadHelper;

/**
 * Loads the job classes that databases written by earlier versions name in {@code QRTZ_JOB_DETAILS}.
 *
 * <p>Quartz stores the class name of each job detail and loads it by that name whenever a trigger of the job
 * fires. Earlier versions kept onebeat's Quartz jobs in {@code dev.onebeat.scheduler.quartz}; they now
 * live in {@code dev.onebeat.scheduler.engine.quartz}. The engine's job details are added only when missing, never
 * rewritten, so a database upgraded in place keeps the old names: this helper maps them to the classes of
 * today. Old and new replicas can therefore share one database during a rolling deploy: the rows keep the
 * names both versions can load.
 */
final class StoredJobClasses implements ClassLoadHelper {

    private static final String OLD_PACKAGE = "dev.onebeat.scheduler.quartz.";

    private static final Map<String, Class<?>> MOVED = Map.of(
            OLD_PACKAGE + "ScheduleFireJob", ScheduleFireJob.class,
            OLD_PACKAGE + "SingleFireJob", SingleFireJob.class,
            OLD_PACKAGE + "SerialFireJob", SerialFireJob.class);

    private final ClassLoadHelper delegate;

    StoredJobClasses(ClassLoadHelper delegate) {
        this.delegate = delegate;
    }

    /** @return the class of today for a name an earlier version stored, else the name unchanged */
    static String current(String storedName) {
        Class<?> moved = MOVED.get(storedName);
        return moved == null ? storedName : moved.getName();
    }

    @Override
    public void initialize() {
        delegate.initialize();
    }

    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException {
        return delegate.loadClass(current(name));
    }

    @Override
    public <T> Class<? extends T> loadClass(String name, Class<T> clazz) throws ClassNotFoundException {
        return delegate.loadClass(current(name), clazz);
    }

    @Override
    public URL getResource(String name) {
        return delegate.getResource(name);
    }

    @Override
    public InputStream getResourceAsStream(String name) {
        return delegate.getResourceAsStream(name);
    }

    @Override
    public ClassLoader getClassLoader() {
        return delegate.getClassLoader();
    }
}
