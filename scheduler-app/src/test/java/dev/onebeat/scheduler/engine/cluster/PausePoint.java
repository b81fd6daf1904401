package dev.onebeat.scheduler.engine.cluster;

/**
 * A place in a replica where it stops for good, so that a test can SIGKILL it there. A replica given
 * {@code -Dreplica.pause-at=<step>} prints {@code PAUSED AT <step>} the first time it reaches the
 * step, then waits forever; every other replica passes through.
 */
final class PausePoint {

    static final String PROPERTY = "replica.pause-at";
    static final String MARKER = "PAUSED AT ";
    private static volatile boolean paused;

    private PausePoint() {
    }

    static void reach(String step) {
        if (!step.equals(System.getProperty(PROPERTY))) {
            return;
        }
        synchronized (PausePoint.class) {
            if (paused) {
                return;
            }
            paused = true;
        }
        System.out.println(MARKER + step);
        System.out.flush();
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // only SIGKILL ends this replica
            }
        }
    }
}
