package dev.onebeat.scheduler.engine.registry;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad job definition into a start-up report that leads with the job and field at fault. */
class JobDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<JobDefinitionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, JobDefinitionException cause) {
        return new FailureAnalysis("A job definition is invalid: " + cause.getMessage(),
                "Fix the job and field named above (onebeat.jobs[] in configuration, or the job's class), then restart.",
                cause);
    }
}
