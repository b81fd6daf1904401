package dev.onebeat.transport.internal.redis;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One Redis command: its name and arguments as the bytes sent on the wire. Strings are UTF-8.
 *
 * @param arguments the command name first, then its arguments; copied, never empty
 */
public record RedisCommand(List<byte[]> arguments) {

    /** Copies the arguments and the arrays in them, so a command cannot change after it is built. */
    public RedisCommand {
        Objects.requireNonNull(arguments, "arguments must not be null");
        if (arguments.isEmpty()) {
            throw new IllegalArgumentException("arguments must name a command, was empty");
        }
        List<byte[]> copy = new ArrayList<>(arguments.size());
        for (byte[] argument : arguments) {
            copy.add(Objects.requireNonNull(argument, "arguments must not contain null").clone());
        }
        arguments = List.copyOf(copy);
    }

    /**
     * @param parts the command name then its arguments, each a {@code String} (sent as UTF-8) or a {@code byte[]}
     * @return the command
     */
    public static RedisCommand of(Object... parts) {
        List<byte[]> arguments = new ArrayList<>(parts.length);
        for (Object part : parts) {
            if (part instanceof byte[] bytes) {
                arguments.add(bytes);
            } else if (part instanceof String text) {
                arguments.add(text.getBytes(StandardCharsets.UTF_8));
            } else {
                throw new IllegalArgumentException("command part must be a String or byte[], was " + part);
            }
        }
        return new RedisCommand(arguments);
    }

    /** @return the command name, such as {@code HSET} */
    public String name() {
        return new String(arguments.get(0), StandardCharsets.UTF_8);
    }

    /** @return a copy of argument {@code index} (0 is the name) */
    public byte[] argument(int index) {
        return arguments.get(index).clone();
    }

    /**
     * The command as one line: arguments that are printable UTF-8 as text, others as {@code hex:…};
     * for logs and tests, not for sending.
     */
    @Override
    public String toString() {
        return arguments.stream().map(RedisCommand::render).collect(Collectors.joining(" "));
    }

    private static String render(byte[] argument) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(argument)).toString();
            if (!text.isEmpty() && text.codePoints().noneMatch(c -> Character.isISOControl(c) || Character.isWhitespace(c))) {
                return text;
            }
            return text.isEmpty() ? "\"\"" : "hex:" + HexFormat.of().formatHex(argument);
        } catch (CharacterCodingException e) {
            return "hex:" + HexFormat.of().formatHex(argument);
        }
    }
}
