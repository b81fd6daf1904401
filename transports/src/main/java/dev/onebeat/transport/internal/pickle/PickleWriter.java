package dev.onebeat.transport.internal.pickle;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON-like values as a protocol 2 pickle with no memo, the subset every Python 3 loads.
 *
 * <p>Accepted values: {@code null} (None), {@link Boolean}, {@link Integer}, {@link Long},
 * {@link Short}, {@link Byte}, {@link BigInteger} (int), {@link Double}, {@link Float} (float),
 * {@link String} (str), {@code byte[]} (bytes), {@link List} (list), {@link PythonTuple} (tuple) and {@link Map} with
 * {@code String} keys (dict, in the map's iteration order). Anything else, a string with an unpaired
 * surrogate or an int wider than 255 bytes is refused with {@link IllegalArgumentException}: the
 * output must load on the worker exactly as written, or not be produced at all.
 *
 * <p>Protocol 2 has no bytes opcode (Python pickles bytes there as a call to {@code _codecs.encode});
 * {@code BINBYTES} comes from protocol 3, and Python 3's unpickler accepts it under a protocol 2
 * header, as it accepts any opcode it knows. JSON arguments never produce bytes.
 */
public final class PickleWriter {

    private static final int PROTO = 0x80;
    private static final int NONE = 'N';
    private static final int NEWTRUE = 0x88;
    private static final int NEWFALSE = 0x89;
    private static final int BININT = 'J';
    private static final int LONG1 = 0x8a;
    private static final int BINFLOAT = 'G';
    private static final int BINUNICODE = 'X';
    private static final int BINBYTES = 'B';
    private static final int MARK = '(';
    private static final int TUPLE = 't';
    private static final int EMPTY_TUPLE = ')';
    private static final int EMPTY_LIST = ']';
    private static final int APPENDS = 'e';
    private static final int EMPTY_DICT = '}';
    private static final int SETITEMS = 'u';
    private static final int STOP = '.';

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private PickleWriter() {
    }

    /**
     * @param value the value to pickle
     * @return the pickle, from the {@code PROTO 2} header to {@code STOP}
     * @throws IllegalArgumentException if the value (or one nested in it) is not in the subset
     */
    public static byte[] dumps(Object value) {
        PickleWriter writer = new PickleWriter();
        writer.out.write(PROTO);
        writer.out.write(2);
        writer.write(value, "value");
        writer.out.write(STOP);
        return writer.out.toByteArray();
    }

    private void write(Object value, String path) {
        if (value == null) {
            out.write(NONE);
        } else if (value instanceof Boolean b) {
            out.write(b ? NEWTRUE : NEWFALSE);
        } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            writeInt(((Number) value).intValue());
        } else if (value instanceof Long l) {
            writeLong(BigInteger.valueOf(l), path);
        } else if (value instanceof BigInteger big) {
            writeLong(big, path);
        } else if (value instanceof Double || value instanceof Float) {
            writeFloat(((Number) value).doubleValue());
        } else if (value instanceof String s) {
            writeString(s, path);
        } else if (value instanceof byte[] bytes) {
            out.write(BINBYTES);
            writeLength(bytes.length);
            out.writeBytes(bytes);
        } else if (value instanceof PythonTuple t) {
            writeTuple(t.items(), path);
        } else if (value instanceof List<?> list) {
            writeList(list, path);
        } else if (value instanceof Map<?, ?> map) {
            writeDict(map, path);
        } else {
            throw new IllegalArgumentException(
                    path + " has type " + value.getClass().getName() + ", which has no pickle here");
        }
    }

    private void writeInt(int value) {
        out.write(BININT);
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
    }

    private void writeLong(BigInteger value, String path) {
        if (value.bitLength() < 32) {
            writeInt(value.intValue());
            return;
        }
        // toByteArray is the minimal big-endian two's complement, the same length Python's encode_long picks
        byte[] bigEndian = value.toByteArray();
        if (bigEndian.length > 255) {
            throw new IllegalArgumentException(path + " is an int of " + bigEndian.length + " bytes, over 255");
        }
        out.write(LONG1);
        out.write(bigEndian.length);
        for (int i = bigEndian.length - 1; i >= 0; i--) {
            out.write(bigEndian[i]);
        }
    }

    private void writeFloat(double value) {
        out.write(BINFLOAT);
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN).putDouble(value).array());
    }

    private void writeString(String value, String path) {
        ByteBuffer utf8;
        try {
            utf8 = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(value));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(path + " is a string with no UTF-8 form (unpaired surrogate?)", e);
        }
        out.write(BINUNICODE);
        writeLength(utf8.remaining());
        byte[] bytes = new byte[utf8.remaining()];
        utf8.get(bytes);
        out.writeBytes(bytes);
    }

    private void writeLength(int length) {
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array());
    }

    private void writeTuple(List<?> items, String path) {
        if (items.isEmpty()) {
            out.write(EMPTY_TUPLE);
            return;
        }
        out.write(MARK);
        for (int i = 0; i < items.size(); i++) {
            write(items.get(i), path + "[" + i + "]");
        }
        out.write(TUPLE);
    }

    private void writeList(List<?> items, String path) {
        out.write(EMPTY_LIST);
        if (items.isEmpty()) {
            return;
        }
        out.write(MARK);
        for (int i = 0; i < items.size(); i++) {
            write(items.get(i), path + "[" + i + "]");
        }
        out.write(APPENDS);
    }

    private void writeDict(Map<?, ?> map, String path) {
        out.write(EMPTY_DICT);
        if (map.isEmpty()) {
            return;
        }
        out.write(MARK);
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String key)) {
                throw new IllegalArgumentException(path + " has a key that is not a string: " + entry.getKey());
            }
            writeString(key, path);
            write(entry.getValue(), path + "." + key);
        }
        out.write(SETITEMS);
    }
}
