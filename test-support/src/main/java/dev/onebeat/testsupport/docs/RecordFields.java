package dev.onebeat.testsupport.docs;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields of the records that a map- or list-valued property holds ({@code onebeat.relay.brokers.<name>.url},
 * {@code onebeat.jobs[i].retry.attempts}), described from their {@code @param} Javadoc in the source. Spring Boot's
 * annotation processor describes the property itself, never the fields of a map's values or a list's elements, so a
 * reference page made from the metadata alone would leave out the settings a user writes most.
 *
 * <p>Hand-written because no library reads record Javadoc at test time: the processor's own model is internal to
 * it, and the Javadoc tool needs a whole doclet. The parsing is narrow on purpose: the {@code /** … *}{@code /}
 * comment just before {@code record Name(} in the file of the record's outermost class, its {@code @param} blocks.
 *
 * @param sources the source roots the records are read from, such as {@code src/main/java}
 * @param loader the class loader that loads them
 * @param packagePrefix only records of packages under this are followed, such as {@code dev.onebeat.}
 */
record RecordFields(List<Path> sources, ClassLoader loader, String packagePrefix) {

    private static final Pattern PARAM = Pattern.compile("@param\\s+(\\w+)\\s+(.*?)(?=\\s@\\w|$)", Pattern.DOTALL);

    /** One field, with its path below the property ({@code .<name>.url}, {@code [i].retry.attempts}). */
    record Field(String path, String type, String defaultValue, String description) {
    }

    /**
     * @return the record that values of a property of this metadata type hold, if it is a {@code Map<String, R>} or
     *     {@code List<R>} of a record {@code R} under the package prefix, with the path segment of one element
     */
    Optional<Element> element(String metadataType, String property) {
        Matcher map = Pattern.compile("java\\.util\\.Map<java\\.lang\\.String,([\\w.$]+)>").matcher(metadataType);
        Matcher list = Pattern.compile("java\\.util\\.(?:List|Set|Collection)<([\\w.$]+)>").matcher(metadataType);
        String keyName = singular(property.substring(property.lastIndexOf('.') + 1));
        if (map.matches()) {
            return load(map.group(1)).map(type -> new Element(type, ".<" + keyName + ">"));
        }
        if (list.matches()) {
            return load(list.group(1)).map(type -> new Element(type, "[i]"));
        }
        return Optional.empty();
    }

    /** A record held by a map or list, and the path segment of one of its values. */
    record Element(Class<?> type, String segment) {
    }

    /**
     * @return every field of {@code type}, depth first through records it holds directly or in maps and lists
     * @throws AssertionError naming each field with no {@code @param} line
     */
    List<Field> fields(Class<?> type, String path) throws IOException {
        List<Field> fields = new ArrayList<>();
        List<String> undescribed = new ArrayList<>();
        collect(type, path, fields, undescribed);
        if (!undescribed.isEmpty()) {
            throw new AssertionError("record fields without a description (give the record component an @param "
                    + "line): " + undescribed);
        }
        return fields;
    }

    private void collect(Class<?> type, String path, List<Field> fields, List<String> undescribed) throws IOException {
        Map<String, String> params = params(type);
        for (RecordComponent component : type.getRecordComponents()) {
            String name = path + "." + kebab(component.getName());
            String description = params.get(component.getName());
            if (description == null) {
                undescribed.add(type.getName() + "." + component.getName());
            }
            fields.add(new Field(name, typeName(component.getGenericType()), defaultValue(component),
                    description == null ? "" : description));
            Optional<Element> nested = nested(component);
            if (nested.isPresent()) {
                collect(nested.get().type(), name + nested.get().segment(), fields, undescribed);
            }
        }
    }

    private Optional<Element> nested(RecordComponent component) {
        Class<?> raw = component.getType();
        if (raw.isRecord() && raw.getName().startsWith(packagePrefix)) {
            return Optional.of(new Element(raw, ""));
        }
        return element(component.getGenericType().getTypeName().replace(", ", ","), component.getName());
    }

    private Optional<Class<?>> load(String name) {
        if (!name.startsWith(packagePrefix)) {
            return Optional.empty();
        }
        try {
            Class<?> type = Class.forName(name, false, loader);
            return type.isRecord() ? Optional.of(type) : Optional.empty();
        } catch (ClassNotFoundException e) {
            throw new AssertionError("the metadata names " + name + ", which is not on the class path", e);
        }
    }

    /** The {@code @param} blocks of the Javadoc just before {@code record Name(} in the record's source file. */
    private Map<String, String> params(Class<?> type) throws IOException {
        Class<?> outer = type;
        while (outer.getEnclosingClass() != null) {
            outer = outer.getEnclosingClass();
        }
        String file = outer.getName().replace('.', '/') + ".java";
        Path source = sources.stream().map(root -> root.resolve(file)).filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new AssertionError("no source of " + type.getName() + " under " + sources));
        String text = Files.readString(source, StandardCharsets.UTF_8);
        Matcher declaration = Pattern.compile("\\brecord\\s+" + Pattern.quote(type.getSimpleName()) + "\\s*[(<]")
                .matcher(text);
        if (!declaration.find()) {
            throw new AssertionError("no declaration of record " + type.getSimpleName() + " in " + source);
        }
        int end = text.lastIndexOf("*/", declaration.start());
        int start = end < 0 ? -1 : text.lastIndexOf("/**", end);
        // the comment belongs to the record only if nothing but annotations and modifiers stands between them
        if (start < 0 || !text.substring(end + 2, declaration.start()).replaceAll("@\\w+(\\([^)]*\\))?", "")
                .replaceAll("\\b(public|protected|private|static|final)\\b", "").isBlank()) {
            return Map.of();
        }
        String javadoc = text.substring(start + 3, end).replaceAll("(?m)^\\s*\\*\\s?", " ");
        Map<String, String> params = new HashMap<>();
        Matcher param = PARAM.matcher(javadoc);
        while (param.find()) {
            params.put(param.group(1), param.group(2).replaceAll("\\s+", " ").strip());
        }
        return params;
    }

    private static String defaultValue(RecordComponent component) {
        for (Annotation annotation : component.getAnnotations()) {
            if (annotation.annotationType().getSimpleName().equals("DefaultValue")) {
                try {
                    String[] values = (String[]) annotation.annotationType().getMethod("value").invoke(annotation);
                    return String.join(", ", values);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("could not read " + annotation, e);
                }
            }
        }
        return null;
    }

    /** The name of one value of a map property: {@code brokers} → {@code broker}, {@code policies} → {@code policy}. */
    static String singular(String name) {
        if (name.endsWith("ies")) {
            return name.substring(0, name.length() - 3) + "y";
        }
        return name.endsWith("s") ? name.substring(0, name.length() - 1) : "key";
    }

    /** {@code maxCatchUp} → {@code max-catch-up}, as Spring Boot names properties. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** A short type for the table: {@code Map<String, String>}, {@code List<Object>}, {@code Duration}. */
    static String typeName(Type type) {
        if (type instanceof ParameterizedType parameterized) {
            List<String> arguments = new ArrayList<>();
            for (Type argument : parameterized.getActualTypeArguments()) {
                arguments.add(typeName(argument));
            }
            return typeName(parameterized.getRawType()) + "<" + String.join(", ", arguments) + ">";
        }
        if (type instanceof Class<?> plain) {
            return plain.getSimpleName();
        }
        return type.getTypeName();
    }

}
