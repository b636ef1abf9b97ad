package io.seckill.support;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Optional;

/**
 * A request from another host, as the service can tell: this machine's own address on a non-loopback interface. A
 * connection to it comes from it, so the service sees a peer that is not loopback, without a second machine.
 */
public final class OtherHost {

    private OtherHost() {
    }

    /** An IPv4 address of an interface that is up and not loopback, if this machine has one. */
    public static Optional<String> address() {
        try {
            return NetworkInterface.networkInterfaces()
                    .filter(OtherHost::up)
                    .flatMap(NetworkInterface::inetAddresses)
                    .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress()
                            && !address.isLinkLocalAddress())
                    .map(InetAddress::getHostAddress)
                    .findFirst();
        } catch (SocketException e) {
            return Optional.empty();
        }
    }

    private static boolean up(NetworkInterface network) {
        try {
            return network.isUp() && !network.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }
}
