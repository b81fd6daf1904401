package dev.onebeat.scheduler.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.onebeat.scheduler.OnebeatApplication;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The main classes of scheduler-app, read once per test JVM and shared by every architecture test. They are read
 * from the application's own class folder rather than by scanning the class path for the package: the class path
 * holds a few hundred jars, and scanning them took most of a minute.
 */
final class SchedulerClasses {

    static final String ROOT = "dev.onebeat.scheduler";

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(classFolder());

    private SchedulerClasses() {
    }

    private static Path classFolder() {
        try {
            return Path.of(OnebeatApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate scheduler-app's classes", e);
        }
    }
}
