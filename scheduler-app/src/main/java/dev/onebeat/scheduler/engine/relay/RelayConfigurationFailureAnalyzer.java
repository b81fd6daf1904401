package dev.onebeat.scheduler.engine.relay;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns bad relay routing into a start-up report listing each property at fault. */
class RelayConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<RelayConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, RelayConfigurationException cause) {
        return new FailureAnalysis("The relay configuration is invalid:\n  - " + String.join("\n  - ", cause.problems()),
                "Fix the onebeat.relay.* properties named above, then restart.", cause);
    }
}
