package io.seckill.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An address or a CIDR range ({@code 10.0.0.0/8}, {@code 192.0.2.7}, {@code fd00::/8}, {@code ::1}). Addresses
 * are read as literals only: text that is not one is never looked up in DNS (a header is no host name to resolve).
 */
final class AddressRange {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    /** Hex digits, colons and an embedded IPv4 tail; no zone ({@code %eth0}), which would name an interface. */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private final byte[] network;
    private final int prefixLength;

    private AddressRange(byte[] network, int prefixLength) {
        this.network = network;
        this.prefixLength = prefixLength;
    }

    /** @throws IllegalArgumentException when the text is neither an address nor a CIDR range */
    static AddressRange parse(String text) {
        String trimmed = text.trim();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        byte[] bytes = literal(address).map(InetAddress::getAddress).orElseThrow(() -> new IllegalArgumentException(
                "'" + text + "' is not an IP address or a CIDR range"));
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(trimmed.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("'" + text + "' has a prefix length outside 0.." + bits);
            }
        }
        return new AddressRange(bytes, prefix);
    }

    /** The address a literal IPv4 or IPv6 text stands for; empty for anything else (host names included). */
    static Optional<InetAddress> literal(String text) {
        String value = text.trim();
        if (value.startsWith("[") && value.endsWith("]")) {
            value = value.substring(1, value.length() - 1);
        }
        try {
            Matcher v4 = IPV4.matcher(value);
            if (v4.matches()) {
                byte[] bytes = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(v4.group(i + 1));
                    if (octet > 255) {
                        return Optional.empty();
                    }
                    bytes[i] = (byte) octet;
                }
                return Optional.of(InetAddress.getByAddress(bytes));
            }
            // A text with a colon is parsed as an IPv6 literal and never resolved.
            return IPV6.matcher(value).matches() ? Optional.of(InetAddress.getByName(value)) : Optional.empty();
        } catch (UnknownHostException notAnAddress) {
            return Optional.empty();
        }
    }

    boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int fullBytes = prefixLength / 8;
        for (int i = 0; i < fullBytes; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int restBits = prefixLength % 8;
        if (restBits == 0) {
            return true;
        }
        int mask = (0xFF << (8 - restBits)) & 0xFF;
        return (candidate[fullBytes] & mask) == (network[fullBytes] & mask);
    }
}
