package dev.onebeat.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives the annotated test class an empty database even where a {@link DatabaseTemplate} is
 * registered: for tests whose subject is what happens on an empty database, such as the first start
 * of an application that creates its tables. {@code @Nested} classes use their enclosing class's
 * database, so the annotation belongs on the outer class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmptyDatabase {
}
