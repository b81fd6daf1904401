package dev.onebeat.scheduler.boot.outbound;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address block, {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one.
 *
 * @param address the block's address, its host bits ignored
 * @param prefix the bits that count
 */
record Network(InetAddress address, int prefix) {

    /**
     * @param property the property being read, for the message
     * @throws IllegalArgumentException naming the property and the value
     */
    static Network parse(String property, String text) {
        String value = text == null ? "" : text.trim();
        int slash = value.indexOf('/');
        String host = slash < 0 ? value : value.substring(0, slash);
        // only literal addresses: a name here would be looked up
        if (!host.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException(property + ": '" + text + "' is not an address or a CIDR block "
                    + "(10.0.0.0/8, fd00::/8)");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(property + ": '" + text + "' is not an address or a CIDR block "
                    + "(10.0.0.0/8, fd00::/8)", e);
        }
        int bits = address.getAddress().length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(value.substring(slash + 1));
        } catch (NumberFormatException e) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException(property + ": '" + text + "' has a prefix length outside 0.." + bits);
        }
        return new Network(address, prefix);
    }

    boolean contains(InetAddress candidate) {
        byte[] mine = address.getAddress();
        byte[] theirs = candidate.getAddress();
        if (mine.length != theirs.length) {
            return false;
        }
        int shift = mine.length * 8 - prefix;
        return new BigInteger(1, mine).shiftRight(shift).equals(new BigInteger(1, theirs).shiftRight(shift));
    }
}
