package dev.onebeat.scheduler.engine.fire;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Set;

/**
 * Wraps the fire's connection so a job cannot end the fire's transaction behind onebeat's back:
 * a commit there would commit a half-done fire, a close would break the rest of it.
 */
final class GuardedConnection {

    private static final Set<String> REFUSED = Set.of("commit", "rollback", "close", "setAutoCommit",
            "abort", "setTransactionIsolation");

    private GuardedConnection() {
    }

    static Connection wrap(Connection target) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    boolean toSavepoint = args != null && args.length == 1 && method.getName().equals("rollback");
                    if (REFUSED.contains(method.getName()) && !toSavepoint) {
                        throw new UnsupportedOperationException("Connection." + method.getName()
                                + " is refused: the fire's transaction is committed or rolled back by onebeat");
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
