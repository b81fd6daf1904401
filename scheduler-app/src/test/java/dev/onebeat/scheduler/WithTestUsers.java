package dev.onebeat.scheduler;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The context of the annotated test has the {@link SecurityTestUsers} (one user and one token per role) and an
 * {@link ApiClient} bean for its server. Read by {@link TestUsersCustomizerFactory}; the same for every class,
 * so it keeps contexts that are otherwise alike shareable, which a {@code @DynamicPropertySource} does not.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface WithTestUsers {
}
