package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.JobContext;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Duration;

/** A job found only through a service file in a jar of the jobs folder (see {@link JobsFolderTest}). */
public class FolderJob implements PeriodicJob {

    @Override
    public String name() {
        return "folder-job";
    }

    @Override
    public Schedule schedule() {
        return Schedule.every(Duration.ofMinutes(1));
    }

    @Override
    public void run(JobContext context) {
    }
}
