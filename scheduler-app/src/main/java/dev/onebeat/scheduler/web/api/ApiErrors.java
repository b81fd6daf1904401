package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.NamespaceLimitException;
import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.admin.NoScheduleOverrideException;
import dev.onebeat.scheduler.operate.admin.UnknownCalendarException;
import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import dev.onebeat.scheduler.operate.admin.UnknownNamespaceException;
import dev.onebeat.scheduler.operate.admin.UnknownTaskException;
import java.util.stream.Collectors;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import tools.jackson.core.JacksonException;

/**
 * Errors become problem details: a bad request parameter, job field or body is a 400 naming it and the value,
 * an unknown job or task a 404, a change that contradicts the current state a 409.
 */
// ahead of Boot's generic problem-details handler, whose detail does not name the parameter
@Order(Ordered.HIGHEST_PRECEDENCE)
@RestControllerAdvice(basePackageClasses = ApiErrors.class)
class ApiErrors {

    @ExceptionHandler(HandlerMethodValidationException.class)
    ProblemDetail invalidParameter(HandlerMethodValidationException e) {
        String detail = e.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream().map(error ->
                        result.getMethodParameter().getParameterName() + ": " + error.getDefaultMessage()
                                + " (was " + result.getArgument() + ")"))
                .collect(Collectors.joining("; "));
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail malformedParameter(MethodArgumentTypeMismatchException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                e.getName() + ": '" + e.getValue() + "' is not a valid " + e.getRequiredType().getSimpleName());
    }

    /** A body that is not JSON, or whose field has the wrong type: the detail names the field (JSON path). */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadableBody(HttpMessageNotReadableException e) {
        String detail = e.getCause() instanceof JacksonException cause ? JsonProblems.describe(cause, null)
                : e.getCause() == null ? "request body is missing; send a JSON object"
                : "request body could not be read";
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
    }

    @ExceptionHandler(JobDefinitionException.class)
    ProblemDetail invalidDefinition(JobDefinitionException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler({UnknownJobException.class, UnknownTaskException.class, NoScheduleOverrideException.class,
            UnknownCalendarException.class, UnknownNamespaceException.class})
    ProblemDetail notFound(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(NamespaceLimitException.class)
    ProblemDetail namespaceLimit(NamespaceLimitException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(AdminConflictException.class)
    ProblemDetail conflict(AdminConflictException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }
}
