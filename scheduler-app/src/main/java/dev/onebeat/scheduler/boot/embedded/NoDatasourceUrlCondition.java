package dev.onebeat.scheduler.boot.embedded;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** Matches when {@code spring.datasource.url} is not set: the embedded database is wanted. */
public final class NoDatasourceUrlCondition implements Condition {

    /** Whether onebeat runs on its embedded database: no {@code spring.datasource.url} is set. */
    public static boolean embeddedWanted(org.springframework.core.env.Environment environment) {
        return !StringUtils.hasText(environment.getProperty("spring.datasource.url"));
    }

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return embeddedWanted(context.getEnvironment());
    }
}
