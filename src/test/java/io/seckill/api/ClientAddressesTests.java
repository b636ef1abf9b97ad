package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.ratelimit.RateLimitProperties;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which address a request is counted against, from its peer and X-Forwarded-For. */
class ClientAddressesTests {

    private static final RateLimitProperties.Limit OFF = new RateLimitProperties.Limit(0, 1);

    private final ClientAddresses addresses = trusting("127.0.0.1", "10.0.0.0/8", "172.16.0.0/12", "::1");

    @Test
    void peerThatIsNoTrustedProxyIsTheClientWhateverItForwards() {
        assertThat(addresses.of("192.0.2.1", List.of("198.51.100.7"))).isEqualTo("192.0.2.1");
    }

    @Test
    void trustedProxyWithoutForwardedForIsItselfTheClient() {
        assertThat(addresses.of("10.0.0.5", List.of())).isEqualTo("10.0.0.5");
    }

    @Test
    void clientIsTheRightMostForwardedAddressThatIsNoTrustedProxy() {
        assertThat(addresses.of("127.0.0.1", List.of("203.0.113.9"))).isEqualTo("203.0.113.9");
        // The client's own claim (left) is passed over; the trusted hops (right) are walked through.
        assertThat(addresses.of("127.0.0.1", List.of("192.0.2.66, 203.0.113.9, 10.1.1.1, 172.31.255.255")))
                .isEqualTo("203.0.113.9");
        // Several headers read as one list, in order.
        assertThat(addresses.of("127.0.0.1", List.of("192.0.2.66, 203.0.113.9", "10.1.1.1"))).isEqualTo("203.0.113.9");
    }

    @Test
    void everyHopTrustedMeansTheLeftMostIsTheClient() {
        assertThat(addresses.of("127.0.0.1", List.of("10.9.9.9, 10.1.1.1"))).isEqualTo("10.9.9.9");
    }

    @Test
    void hopThatIsNoAddressCountsAgainstTheProxyThatPassedItOn() {
        // Host names are not resolved, octets over 255 and zone ids are no addresses.
        assertThat(addresses.of("127.0.0.1", List.of("evil.example, 10.1.1.1"))).isEqualTo("10.1.1.1");
        assertThat(addresses.of("127.0.0.1", List.of("256.1.1.1"))).isEqualTo("127.0.0.1");
        assertThat(addresses.of("127.0.0.1", List.of("fe80::1%eth0"))).isEqualTo("127.0.0.1");
    }

    @Test
    void rangeEndsAreExact() {
        assertThat(addresses.of("172.32.0.1", List.of("203.0.113.9"))).isEqualTo("172.32.0.1");
        assertThat(addresses.of("172.16.0.0", List.of("203.0.113.9"))).isEqualTo("203.0.113.9");
    }

    @Test
    void ipv6AddressesAreWrittenOneWay() {
        assertThat(addresses.of("0:0:0:0:0:0:0:1", List.of("2001:DB8::0:1"))).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(addresses.of("127.0.0.1", List.of("[2001:db8::7]"))).isEqualTo("2001:db8:0:0:0:0:0:7");
        // An IPv4-mapped IPv6 address is the IPv4 address.
        assertThat(addresses.of("::ffff:10.0.0.1", List.of("203.0.113.9"))).isEqualTo("203.0.113.9");
    }

    @Test
    void trustedProxyThatIsNeitherAddressNorRangeStopsTheStart() {
        assertThatThrownBy(() -> trusting("proxy.internal")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("proxy.internal");
        assertThatThrownBy(() -> trusting("10.0.0.0/33")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prefix");
    }

    private static ClientAddresses trusting(String... proxies) {
        return new ClientAddresses(new RateLimitProperties(OFF, OFF, OFF, List.of(proxies)));
    }
}
