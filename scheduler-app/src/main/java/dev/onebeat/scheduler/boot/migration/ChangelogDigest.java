package dev.onebeat.scheduler.boot.migration;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
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
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * A digest of everything Liquibase's decision to run a changeset depends on, on the changelog's side: the bytes of
 * the changelog and of every file it includes, their paths, and Liquibase's version. Equal digests mean Liquibase
 * would find the same changesets with the same checksums.
 *
 * <p>Written here rather than asked of Liquibase, because asking Liquibase means starting it: its service lookups,
 * changelog parsing and checksums are what a start on an up-to-date database pays for nothing (about a seventh of a
 * replica's start-up CPU, measured with JFR). This reads the files as bytes and follows {@code <include>} only. A
 * changelog it cannot follow with certainty has no digest, and Liquibase runs every time as before: one in YAML or
 * JSON, one using {@code includeAll}, a formatted SQL {@code --include}, a file referenced from inside a changeset
 * ({@code sqlFile}, {@code loadData}, anything with a {@code path} attribute), or a changeset that runs always.
 */
final class ChangelogDigest {

    private static final String CLASSPATH = "classpath:";

    private final ResourceLoader resources;
    private final MessageDigest digest;
    private final Set<String> visited = new LinkedHashSet<>();

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
     * @throws IOException when a file cannot be read (Liquibase would fail on it too)
     */
    static Optional<String> of(ResourceLoader resources, String changeLog) throws IOException {
        ChangelogDigest digest = new ChangelogDigest(resources);
        digest.add(liquibaseRelease());
        if (!digest.visit(stripClasspath(changeLog))) {
            return Optional.empty();
        }
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
        if (text.contains("runAlways")) {
            return false;
        }
        String lower = path.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".sql")) {
            return !text.contains("--include");
        }
        if (!lower.endsWith(".xml")) {
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
                if (file.isEmpty()) {
                    return false;
                }
                String included = Boolean.parseBoolean(element.getAttribute("relativeToChangelogFile"))
                        ? sibling(path, file) : stripClasspath(file);
                if (!visit(included)) {
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
            DocumentBuilder builder = factory.newDocumentBuilder();
            // the schema location is not fetched: nothing is validated here, Liquibase validates when it runs
            builder.setEntityResolver((publicId, systemId) -> new InputSource(
                    new ByteArrayInputStream(new byte[0])));
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

    private static String stripClasspath(String location) {
        String path = location.startsWith(CLASSPATH) ? location.substring(CLASSPATH.length()) : location;
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        return path;
    }
}
