package dev.onebeat.scheduler.boot.outbound;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Which private addresses the URLs an API user sets may reach ({@code onebeat.security.outbound.*}). Unset, they
 * may reach public addresses only: loopback, link-local ({@code 169.254.0.0/16}, {@code fe80::/10}), private
 * ({@code 10/8}, {@code 172.16/12}, {@code 192.168/16}, {@code fc00::/7}), shared ({@code 100.64/10}), multicast
 * and unspecified addresses are refused.
 *
 * @param allowedHosts host names allowed whatever they resolve to, compared without case
 *     ({@code hc.internal.example.com}); a leading {@code *.} allows the subdomains of a name
 * @param allowedNetworks addresses or CIDR blocks allowed ({@code 10.20.0.0/16}, {@code 127.0.0.1},
 *     {@code fd00:1::/32})
 */
@ConfigurationProperties("onebeat.security.outbound")
public record OutboundProperties(List<String> allowedHosts, List<String> allowedNetworks) {

    public OutboundProperties {
        List<String> hosts = new ArrayList<>();
        List<String> given = allowedHosts == null ? List.of() : allowedHosts;
        for (int i = 0; i < given.size(); i++) {
            String host = given.get(i) == null ? "" : given.get(i).trim().toLowerCase(Locale.ROOT);
            if (!host.matches("(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?")) {
                throw new IllegalArgumentException("onebeat.security.outbound.allowed-hosts[" + i + "]: '" + given.get(i)
                        + "' is not a host name (hooks.example.com, or *.example.com for its subdomains)");
            }
            hosts.add(host);
        }
        allowedHosts = List.copyOf(hosts);
        allowedNetworks = allowedNetworks == null ? List.of() : List.copyOf(allowedNetworks);
        for (int i = 0; i < allowedNetworks.size(); i++) {
            Network.parse("onebeat.security.outbound.allowed-networks[" + i + "]", allowedNetworks.get(i));
        }
    }

    /** @return nothing allowed beyond public addresses */
    public static OutboundProperties none() {
        return new OutboundProperties(List.of(), List.of());
    }
}
