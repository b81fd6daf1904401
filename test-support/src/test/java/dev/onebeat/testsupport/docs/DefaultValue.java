package dev.onebeat.testsupport.docs;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Stands in for Spring Boot's {@code @DefaultValue}, which the reference reads by its simple name. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.PARAMETER})
@interface DefaultValue {
    String[] value();
}
