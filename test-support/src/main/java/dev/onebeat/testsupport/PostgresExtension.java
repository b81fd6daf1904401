package dev.onebeat.testsupport;

import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each test class a fresh PostgreSQL database of its own: empty, or a copy of the JVM's
 * template where the module registers a {@link DatabaseTemplate} (and the class is not
 * {@link EmptyDatabase}).
 *
 * <p>Register it with {@code @ExtendWith(PostgresExtension.class)}. Before the class runs, a
 * database named {@code onebeat_t_<class>_<random hex>} is created on the JVM's shared server (see
 * the package documentation for how that server is found); after the class, the database is
 * dropped, ending any session still connected to it. The database is available as a
 * {@link TestDatabase} parameter of constructors, {@code @BeforeAll}, {@code @BeforeEach} and test
 * methods, and to static code through {@link #database(Class)}.
 *
 * <p>{@code @Nested} classes use the database of their enclosing class. Under
 * {@code @TestInstance(PER_CLASS)} the database is created before the test instance, so the
 * constructor, and an application context built for the instance, can use it too.
 *
 * <p>With Spring, put this extension before {@code @SpringBootTest} on the class: extensions are
 * called back in reverse order after the class, so the application context closes while its
 * database still exists.
 */
public final class PostgresExtension
        implements BeforeAllCallback, AfterAllCallback, TestInstancePreConstructCallback, ParameterResolver {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresExtension.class);
    private static final Namespace NAMESPACE = Namespace.create(PostgresExtension.class);
    private static final String DATABASE = "database";

    // for static code that has no ExtensionContext, such as Spring's @DynamicPropertySource methods
    private static final Map<Class<?>, TestDatabase> DATABASES = new ConcurrentHashMap<>();

    /** Called by JUnit when the extension is registered with {@code @ExtendWith}. */
    public PostgresExtension() {
    }

    /**
     * The database of a test class while it runs: from the extension's {@code beforeAll} until its
     * {@code afterAll}. A {@code @Nested} class yields the database of its enclosing class.
     *
     * <p>Meant for static code, such as a {@code @DynamicPropertySource} method, which Spring runs
     * after {@code beforeAll}. Pass the class that registers the extension, or one nested in it.
     *
     * @param testClass the test class
     * @return the class's database
     * @throws IllegalStateException if no database exists for the class: the extension is not
     *     registered on it, or the class is not running
     */
    public static TestDatabase database(Class<?> testClass) {
        Objects.requireNonNull(testClass, "testClass must not be null");
        for (Class<?> candidate = testClass; candidate != null; candidate = enclosingOfInner(candidate)) {
            TestDatabase database = DATABASES.get(candidate);
            if (database != null) {
                return database;
            }
        }
        throw new IllegalStateException("no test database for " + testClass.getName()
                + ": annotate the class with @ExtendWith(PostgresExtension.class) and ask only while it runs"
                + " (from @DynamicPropertySource, @BeforeAll, a test or @AfterAll)");
    }

    /** Creates the class's database, unless an enclosing class already has one. */
    @Override
    public void beforeAll(ExtensionContext context) {
        databaseOf(context);
    }

    /**
     * Under {@code PER_CLASS} the instance is built before {@code beforeAll}; creates the database
     * now so that the constructor and Spring's test instance post-processing can see it.
     */
    @Override
    public void preConstructTestInstance(TestInstanceFactoryContext factoryContext, ExtensionContext context) {
        if (context.getTestInstanceLifecycle().orElse(Lifecycle.PER_METHOD) == Lifecycle.PER_CLASS
                && context.getTestMethod().isEmpty()) {
            databaseOf(context);
        }
    }

    /** Drops the database this class created; a {@code @Nested} class leaves its enclosing one alone. */
    @Override
    public void afterAll(ExtensionContext context) {
        // remove() looks at this class's own store only, never the enclosing class's
        TestDatabase owned = context.getStore(NAMESPACE).remove(DATABASE, TestDatabase.class);
        if (owned == null) {
            return;
        }
        Class<?> testClass = context.getRequiredTestClass();
        DATABASES.remove(testClass, owned);
        DatabaseAdmin.drop(PostgresServers.shared(), owned.name());
        LOG.debug("dropped test database name={} testClass={}", owned.name(), testClass.getName());
    }

    /** @return whether the parameter is a {@link TestDatabase} */
    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == TestDatabase.class;
    }

    /** @return the database of the running test class */
    @Override
    public TestDatabase resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        TestDatabase database = extensionContext.getStore(NAMESPACE).get(DATABASE, TestDatabase.class);
        if (database == null) {
            throw new ParameterResolutionException("no test database for " + parameterContext.getDeclaringExecutable()
                    + ": register PostgresExtension on the test class, not on a method or an instance field");
        }
        return database;
    }

    /** The database visible from this context, its own or an enclosing class's; created if there is none. */
    private static TestDatabase databaseOf(ExtensionContext context) {
        // get() also searches the stores of enclosing contexts, which is how @Nested classes share
        Store store = context.getStore(NAMESPACE);
        TestDatabase existing = store.get(DATABASE, TestDatabase.class);
        if (existing != null) {
            return existing;
        }
        Class<?> testClass = context.getRequiredTestClass();
        PostgresServer server = PostgresServers.shared();
        TestDatabase created = DatabaseAdmin.create(server, DatabaseNames.forTestClass(testClass),
                DatabaseTemplates.forTestClass(server, testClass));
        store.put(DATABASE, created);
        DATABASES.put(testClass, created);
        LOG.debug("created test database name={} testClass={}", created.name(), testClass.getName());
        return created;
    }

    // only inner (non-static) classes can be @Nested; a static nested class is a test class of its own
    private static Class<?> enclosingOfInner(Class<?> type) {
        return Modifier.isStatic(type.getModifiers()) ? null : type.getEnclosingClass();
    }
}
