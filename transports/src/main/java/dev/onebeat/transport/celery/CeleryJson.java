package dev.onebeat.transport.celery;

import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators.Spacing;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON as kombu writes it: one line, {@code ", "} and {@code ": "} separators. Workers decode any
 * JSON; matching Celery's layout makes our bytes comparable with captured Celery messages. Unlike
 * Python's default, non-ASCII text stays UTF-8, which the {@code utf-8} content encoding declares.
 */
final class CeleryJson {

    /** Keeps decimal payload numbers as written rather than rounding them through a double. */
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    static final ObjectWriter WRITER = MAPPER.writer().with(kombuLayout());

    private CeleryJson() {
    }

    private static DefaultPrettyPrinter kombuLayout() {
        Separators separators = Separators.createDefaultInstance()
                .withObjectNameValueSpacing(Spacing.AFTER)
                .withObjectEntrySpacing(Spacing.AFTER)
                .withArrayElementSpacing(Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        return new DefaultPrettyPrinter(separators)
                .withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance())
                .withObjectIndenter(DefaultPrettyPrinter.NopIndenter.instance());
    }
}
