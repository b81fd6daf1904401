package dev.onebeat.scheduler.engine.relay;

import java.util.List;

/** The relay's routing is wrong; start-up stops with every problem, each naming its property and value. */
public class RelayConfigurationException extends RuntimeException {

    private final transient List<String> problems;

    /** @param problems one line each, naming the property and value at fault */
    public RelayConfigurationException(List<String> problems) {
        super("invalid relay configuration: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** @return the problems, one line each */
    public List<String> problems() {
        return problems;
    }
}
