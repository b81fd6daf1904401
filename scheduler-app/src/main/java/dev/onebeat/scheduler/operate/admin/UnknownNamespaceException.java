package dev.onebeat.scheduler.operate.admin;

/** No namespace of that name is declared ({@code onebeat.namespaces}), or none the caller may see. */
public class UnknownNamespaceException extends RuntimeException {

    public UnknownNamespaceException(String name) {
        super("no namespace named '" + name + "'");
    }
}
