package dev.onebeat.scheduler.boot.outbound;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Decides whether onebeat may send a request to a URL an API user set. Its host is resolved and every address
 * checked: an address that is loopback, link-local, private, shared, multicast or unspecified is refused unless
 * it falls in {@code onebeat.security.outbound.allowed-networks}; a host named in {@code allowed-hosts} is allowed
 * whatever it resolves to. The check runs where the URL is set (a 400 naming the field) and again before each
 * request (names may resolve elsewhere by then). The address the HTTP client then connects to is resolved once
 * more by it: a name whose answer changes between the two (DNS rebinding) is not caught, list such names'
 * networks instead of trusting them.
 */
@Component
public class OutboundUrls {

    /** Not public whatever {@link InetAddress} says: CGNAT, benchmarking, reserved, IPv6 unique-local and NAT64. */
    private static final List<Network> RESERVED = List.of("0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24",
                    "198.18.0.0/15", "240.0.0.0/4", "fc00::/7", "64:ff9b::/96").stream()
            .map(block -> Network.parse("reserved", block)).toList();

    private final List<String> hosts;
    private final List<Network> networks;
    private final Resolver resolver;

    /** Looks a host name up: {@link InetAddress#getAllByName}, or a fixed answer in tests. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    @Autowired
    public OutboundUrls(OutboundProperties properties) {
        this(properties, InetAddress::getAllByName);
    }

    OutboundUrls(OutboundProperties properties, Resolver resolver) {
        this.hosts = properties.allowedHosts();
        this.networks = properties.allowedNetworks().stream()
                .map(network -> Network.parse("onebeat.security.outbound.allowed-networks", network)).toList();
        this.resolver = resolver;
    }

    /**
     * Checks a URL as it is set. A host name that does not resolve now is accepted: it reaches nothing, and it
     * is checked again before each request.
     *
     * @param field the field that sets it, named in the message
     * @throws IllegalArgumentException naming the field, the URL and the address refused
     */
    public void check(String field, String url) {
        refusal(url, false).ifPresent(why -> {
            throw new IllegalArgumentException(field + ": '" + url + "' is refused: " + why);
        });
    }

    /**
     * @param url the URL about to be requested
     * @return why it may not be requested, or empty when it may; a host that does not resolve is refused
     */
    public Optional<String> refusalBeforeSending(String url) {
        return refusal(url, true);
    }

    private Optional<String> refusal(String url, boolean mustResolve) {
        URI uri;
        try {
            uri = URI.create(url.trim());
        } catch (IllegalArgumentException e) {
            return Optional.of("not a URL");
        }
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null) {
            return Optional.of("not an absolute http:// or https:// URL");
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT).replaceAll("^\\[|]$", "");
        if (hostAllowed(host)) {
            return Optional.empty();
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            return mustResolve ? Optional.of("its host " + host + " does not resolve") : Optional.empty();
        }
        for (InetAddress address : addresses) {
            String kind = kind(address);
            if (kind != null && networks.stream().noneMatch(network -> network.contains(address))) {
                String where = address.getHostAddress().equals(host) ? host + " is " + kind
                        : host + " is at " + address.getHostAddress() + ", " + kind;
                return Optional.of(where + "; only public addresses may be reached, or those of "
                        + "onebeat.security.outbound.allowed-hosts and allowed-networks");
            }
        }
        return Optional.empty();
    }

    private boolean hostAllowed(String host) {
        for (String allowed : hosts) {
            if (allowed.startsWith("*.") ? host.endsWith(allowed.substring(1)) : host.equals(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** @return what makes the address not public, or {@code null} if it is */
    private static String kind(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "an unspecified address";
        }
        if (address.isLoopbackAddress()) {
            return "a loopback address";
        }
        if (address.isLinkLocalAddress()) {
            return "a link-local address";
        }
        if (address.isSiteLocalAddress()) {
            return "a private address";
        }
        if (address.isMulticastAddress()) {
            return "a multicast address";
        }
        if (address instanceof Inet6Address v6 && v6.isIPv4CompatibleAddress()) {
            return "an IPv4-compatible IPv6 address";
        }
        return RESERVED.stream().anyMatch(network -> network.contains(address)) ? "a reserved or private address" : null;
    }
}
