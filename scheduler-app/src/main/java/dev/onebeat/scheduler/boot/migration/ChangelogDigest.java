package dev.onebeat.scheduler.boot.migration;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import liquibase.Liquibase;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * A digest of what Liquibase's decision to run a changeset depends on, on the replica's side: the bytes of the
 * changelog and of every file it includes, their paths, the values the environment and system properties give the
 * changelog's {@code ${parameters}}, every {@code liquibase.*} system property and {@code LIQUIBASE_*} variable, and
 * Liquibase's release. Equal digests mean Liquibase would read the same changesets with the same checksums and
 * settings.
 *
 * <p>Written here rather than asked of Liquibase, because asking Liquibase means starting it: its service lookups,
 * changelog parsing and checksums are what a start on an up-to-date database pays for nothing (about a seventh of a
 * replica's start-up CPU, measured with JFR). This reads the files as bytes and follows {@code <include>} only. A
 * changelog it cannot follow with certainty has no digest, and Liquibase runs at every start, as before: one not on
 * the class path, one in YAML or JSON, with a DOCTYPE, using {@code includeAll}, an optional include, a formatted
 * SQL {@code --include}, a file referenced from inside a changeset ({@code sqlFile}, {@code loadData}, anything with
 * a {@code path} attribute), a precondition (one that fails with {@code CONTINUE} is tried again at every start), a
 * changeset that runs always, or a path found twice on the class path.
 */
final class ChangelogDigest {

    private static final String CLASSPATH = "classpath:";
    private static final Pattern PARAMETER = Pattern.compile("\\$\\{([^}:]+)");

    private final ResourceLoader resources;
    private final MessageDigest digest;
    private final Set<String> visited = new LinkedHashSet<>();
    private final Set<String> parameters = new TreeSet<>();

    private ChangelogDigest(ResourceLoader resources) {
        this.resources = resources;
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * @param changeLog the changelog as Liquibase is given it ({@code classpath:db/onebeat/changelog-master.xml})
     * @return its digest, or empty when it uses what this does not follow
     * @throws IOException when a file cannot be read, is found twice on the class path or is not well-formed
     */
    static Optional<String> of(ResourceLoader resources, String changeLog) throws IOException {
        String path = classpathPath(changeLog);
        if (path == null) {
            return Optional.empty();
        }
        ChangelogDigest digest = new ChangelogDigest(resources);
        digest.add(liquibaseRelease());
        if (!digest.visit(path)) {
            return Optional.empty();
        }
        // Liquibase gives a parameter the value of the system property, else of the variable, of its name first
        for (String name : digest.parameters) {
            digest.add("${" + name + "}=" + System.getProperty(name) + "|" + System.getenv(name));
        }
        new TreeMap<>(System.getProperties()).forEach((name, value) -> {
            if (name.toString().startsWith("liquibase.")) {
                digest.add(name + "=" + value);
            }
        });
        new TreeMap<>(System.getenv()).forEach((name, value) -> {
            if (name.startsWith("LIQUIBASE_")) {
                digest.add(name + "=" + value);
            }
        });
        return Optional.of(HexFormat.of().formatHex(digest.digest.digest()));
    }

    /** @return false when the file uses something not followed here */
    private boolean visit(String path) throws IOException {
        if (!visited.add(path)) {
            return true;
        }
        byte[] bytes = read(path);
        add(path);
        add(Integer.toString(bytes.length));
        digest.update(bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        String lowerText = text.toLowerCase(Locale.ROOT);
        if (lowerText.contains("runalways") || lowerText.contains("precondition")) {
            return false;
        }
        Matcher parameter = PARAMETER.matcher(text);
        while (parameter.find()) {
            parameters.add(parameter.group(1).trim());
        }
        String lower = path.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".sql")) {
            return !lowerText.contains("--include");
        }
        if (!lower.endsWith(".xml") || lowerText.contains("<!doctype")) {
            return false;
        }
        return visitXml(path, bytes);
    }

    private boolean visitXml(String path, byte[] bytes) throws IOException {
        Document document = parse(path, bytes);
        NodeList all = document.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < all.getLength(); i++) {
            Element element = (Element) all.item(i);
            String name = element.getLocalName();
            if ("includeAll".equals(name) || element.hasAttribute("path")) {
                return false;
            }
            if ("include".equals(name)) {
                String file = element.getAttribute("file");
                // an optional include's file may be missing, which Liquibase skips
                if (file.isEmpty() || element.hasAttribute("errorIfMissing")) {
                    return false;
                }
                String included = Boolean.parseBoolean(element.getAttribute("relativeToChangelogFile"))
                        ? sibling(path, file) : classpathPath(file);
                if (included == null || !visit(included)) {
                    return false;
                }
            } else if (element.hasAttribute("file") || referencesFile(element.getAttributes())) {
                return false;
            }
        }
        return true;
    }

    /** loadData and its kin name their file by other attributes in some versions: any attribute ending in "File". */
    private static boolean referencesFile(NamedNodeMap attributes) {
        for (int i = 0; i < attributes.getLength(); i++) {
            Node attribute = attributes.item(i);
            String name = attribute.getLocalName() != null ? attribute.getLocalName() : attribute.getNodeName();
            if (name.endsWith("File") && !name.equals("relativeToChangelogFile")) {
                return true;
            }
        }
        return false;
    }

    private byte[] read(String path) throws IOException {
        ClassLoader loader = resources.getClassLoader();
        if (loader != null && Collections.list(loader.getResources(path)).size() > 1) {
            // Liquibase refuses a path it finds twice; reading one of them here could skip that failure
            throw new IOException("changelog file found more than once on the class path: " + path);
        }
        Resource resource = resources.getResource(CLASSPATH + path);
        if (!resource.exists()) {
            throw new IOException("changelog file not found on the class path: " + path);
        }
        try (InputStream in = resource.getInputStream()) {
            return in.readAllBytes();
        }
    }

    private void add(String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    private static Document parse(String path, byte[] bytes) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            // not validating: the schema named in the changelog is not fetched; Liquibase validates when it runs
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(new ByteArrayInputStream(bytes));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("changelog " + path + " is not well-formed XML: " + e.getMessage(), e);
        }
    }

    /**
     * Liquibase's release, as the name of its jar ({@code liquibase-core-4.33.0.jar}): its manifest has no
     * implementation version, and asking Liquibase itself starts it. Outside a jar, the whole location.
     */
    static String liquibaseRelease() {
        CodeSource source = Liquibase.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "liquibase (location unknown)";
        }
        String location = source.getLocation().toString();
        String trimmed = location.replaceAll("(!/)+$", "");
        return trimmed.endsWith(".jar") ? trimmed.substring(trimmed.lastIndexOf('/') + 1) : location;
    }

    private static String sibling(String path, String file) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? file : path.substring(0, slash + 1) + file;
    }

    /** @return the class path location's path, or {@code null} for a location of another kind (a file, a URL) */
    private static String classpathPath(String location) {
        String path = location;
        if (path.startsWith(CLASSPATH)) {
            path = path.substring(CLASSPATH.length());
        } else if (path.matches("^[a-zA-Z][a-zA-Z0-9+.*-]*:.*")) {
            return null;
        }
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        return path;
    }
}
