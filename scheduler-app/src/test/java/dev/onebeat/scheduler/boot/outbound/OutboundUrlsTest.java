package dev.onebeat.scheduler.boot.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class OutboundUrlsTest {

    /** Names resolve as this says, without DNS. */
    private static final Map<String, List<String>> DNS = Map.of(
            "hc-ping.example.com", List.of("93.184.216.34"),
            "localhost", List.of("127.0.0.1", "::1"),
            "split.example.com", List.of("93.184.216.34", "10.1.2.3"),
            "internal.example.com", List.of("10.20.30.40"));

    private static OutboundUrls urls(List<String> hosts, List<String> networks) {
        return new OutboundUrls(new OutboundProperties(hosts, networks), OutboundUrlsTest::resolve);
    }

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        if (host.matches("[0-9.]+|.*:.*")) {
            return new InetAddress[] {InetAddress.getByName(host)};
        }
        List<String> addresses = DNS.get(host);
        if (addresses == null) {
            throw new UnknownHostException(host);
        }
        InetAddress[] resolved = new InetAddress[addresses.size()];
        for (int i = 0; i < resolved.length; i++) {
            resolved[i] = InetAddress.getByName(addresses.get(i));
        }
        return resolved;
    }

    private final OutboundUrls none = urls(List.of(), List.of());

    @Test
    void publicHostIsAllowed() {
        assertThatNoException().isThrownBy(() -> none.check("alerts.healthchecksUrl", "https://hc-ping.example.com/5f2e"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/x", "http://localhost/x", "http://[::1]/x", "http://10.0.0.5/x",
            "http://172.16.3.4/x", "http://192.168.1.1/x", "http://169.254.169.254/latest/meta-data/",
            "http://[fe80::1]/x", "http://[fd12:3456::1]/x", "http://0.0.0.0/x", "http://100.64.1.1/x",
            "http://[::ffff:127.0.0.1]/x", "http://split.example.com/x", "http://internal.example.com/x"})
    void nonPublicAddressIsRefusedUnlessAllowed(String url) {
        assertThatIllegalArgumentException().isThrownBy(() -> none.check("alerts.healthchecksUrl", url))
                .withMessageStartingWith("alerts.healthchecksUrl: '" + url + "' is refused: ")
                .withMessageEndingWith("; only public addresses may be reached, or those of "
                        + "onebeat.security.outbound.allowed-hosts and allowed-networks");
    }

    @Test
    void messageNamesTheAddressAndWhatItIs() {
        assertThatIllegalArgumentException().isThrownBy(() -> none.check("alerts.healthchecksUrl", "http://localhost:9/x"))
                .withMessageContaining("localhost is at 127.0.0.1, a loopback address");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> none.check("alerts.healthchecksUrl", "http://169.254.169.254/"))
                .withMessageContaining("169.254.169.254 is a link-local address");
    }

    @Test
    void allowedNetworkLetsItsAddressesThrough() {
        OutboundUrls loopback = urls(List.of(), List.of("127.0.0.0/8", "::1"));

        assertThatNoException().isThrownBy(() -> loopback.check("f", "http://localhost:8080/x"));
        assertThatNoException().isThrownBy(() -> loopback.check("f", "http://127.9.9.9/x"));
        assertThatIllegalArgumentException().isThrownBy(() -> loopback.check("f", "http://10.0.0.1/x"));
    }

    @Test
    void allowedHostIsAllowedWhateverItResolvesTo() {
        OutboundUrls hosts = urls(List.of("internal.example.com", "*.corp.example.com"), List.of());

        assertThatNoException().isThrownBy(() -> hosts.check("f", "http://INTERNAL.example.com/x"));
        assertThatNoException().isThrownBy(() -> hosts.check("f", "http://hc.corp.example.com/x"));
        assertThatIllegalArgumentException().isThrownBy(() -> hosts.check("f", "http://split.example.com/x"));
    }

    @Test
    void nameThatDoesNotResolveIsAcceptedWhenSetAndRefusedBeforeSending() {
        assertThatNoException().isThrownBy(() -> none.check("f", "https://nowhere.example.com/x"));
        assertThat(none.refusalBeforeSending("https://nowhere.example.com/x"))
                .contains("its host nowhere.example.com does not resolve");
        assertThat(none.refusalBeforeSending("https://hc-ping.example.com/x")).isEmpty();
        assertThat(none.refusalBeforeSending("http://10.0.0.5/x")).isPresent();
    }

    @Test
    void networkThatIsNoCidrBlockIsRefusedNamingTheProperty() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboundProperties(List.of(), List.of("10.0.0.0/8", "intranet")))
                .withMessage("onebeat.security.outbound.allowed-networks[1]: 'intranet' is not an address or a CIDR "
                        + "block (10.0.0.0/8, fd00::/8)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboundProperties(List.of(), List.of("10.0.0.0/33")))
                .withMessage("onebeat.security.outbound.allowed-networks[0]: '10.0.0.0/33' has a prefix length "
                        + "outside 0..32");
    }

    @Test
    void hostThatIsNoHostNameIsRefusedNamingTheProperty() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboundProperties(List.of("http://hooks.example.com"), List.of()))
                .withMessageStartingWith("onebeat.security.outbound.allowed-hosts[0]: 'http://hooks.example.com' is not a "
                        + "host name");
    }
}
