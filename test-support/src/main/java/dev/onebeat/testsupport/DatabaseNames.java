package dev.onebeat.testsupport;

import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Names of test databases: {@code onebeat_t_<class>_<8 hex digits>}, where {@code <class>} is the
 * test class's simple name in lower case, letters and digits only, cut to {@value #MAX_CLASS_PART}
 * characters. The class part tells a human which test left a database behind; the random part
 * keeps concurrent runs of the same class, in several JVMs or on a shared server, apart.
 */
final class DatabaseNames {

    static final String PREFIX = "onebeat_t_";
    static final int MAX_CLASS_PART = 20;

    private static final HexFormat HEX = HexFormat.of();

    private DatabaseNames() {
    }

    /** @return {@code onebeat_t_template_<8 hex digits>}: the JVM's template, named like a test's database */
    static String forTemplate() {
        return PREFIX + "template_" + HEX.toHexDigits(ThreadLocalRandom.current().nextInt());
    }

    static String forTestClass(Class<?> testClass) {
        String simpleName = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        // anonymous and oddly named classes still get a readable name
        String classPart = simpleName.isEmpty() ? "class" : simpleName;
        if (classPart.length() > MAX_CLASS_PART) {
            classPart = classPart.substring(0, MAX_CLASS_PART);
        }
        return PREFIX + classPart + "_" + HEX.toHexDigits(ThreadLocalRandom.current().nextInt());
    }
}
