package dev.onebeat.testsupport.jvm;

import java.util.concurrent.locks.LockSupport;

/** Run by {@link FaketimeIT} under libfaketime: prints its wall clock, then how many 100 ms parks fit in one second. */
public final class FaketimeProbe {

    private FaketimeProbe() {
    }

    public static void main(String[] args) {
        System.out.println("wall " + System.currentTimeMillis());
        long end = System.nanoTime() + 1_000_000_000L;
        long parks = 0;
        while (System.nanoTime() < end) {
            LockSupport.parkNanos(100_000_000L);
            parks++;
        }
        System.out.println("parks " + parks);
    }
}
