package dev.onebeat.transport.internal.pickle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.transport.testing.PythonInterpreter;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PickleWriterTest {

    private static String hex(Object value) {
        return HexFormat.of().formatHex(PickleWriter.dumps(value));
    }

    @Test
    void rqReferenceTupleHasTheReferenceBytes() {
        // wire-formats.md §5: ('rqtasks.add', None, (5, 6), {})
        assertThat(hex(PythonTuple.of("rqtasks.add", null, PythonTuple.of(5, 6), Map.of())))
                .isEqualTo("8002" + "28" + "580b000000" + "7271746173 6b732e616464".replace(" ", "")
                        + "4e" + "28" + "4a05000000" + "4a06000000" + "74" + "7d" + "74" + "2e");
    }

    @Test
    void scalarsUseTheProtocolTwoOpcodes() {
        assertThat(hex(null)).isEqualTo("80024e2e");
        assertThat(hex(true)).isEqualTo("8002882e");
        assertThat(hex(false)).isEqualTo("8002892e");
        assertThat(hex(-1)).isEqualTo("80024affffffff2e");
        assertThat(hex(1.5)).isEqualTo("8002473ff80000000000002e");
        assertThat(hex("")).isEqualTo("80025800000000" + "2e");
    }

    @Test
    void intsBeyondThirtyTwoBitsUseMinimalLittleEndianLong1() {
        assertThat(hex(2147483647L)).isEqualTo("80024affffff7f2e");
        assertThat(hex(2147483648L)).isEqualTo("80028a050000008000" + "2e");
        assertThat(hex(1795938959012L)).isEqualTo("80028a06a4be4d26a2012e");
        assertThat(hex(-2147483649L)).isEqualTo("80028a05ffffff7fff2e");
        assertThat(hex(new BigInteger("18446744073709551616"))).isEqualTo("80028a09000000000000000001" + "2e");
    }

    @Test
    void bytesUseBinbytesWithLittleEndianLength() {
        assertThat(hex(new byte[] {'a', 'b'})).isEqualTo("8002" + "4202000000" + "6162" + "2e");
    }

    @Test
    void emptyContainersHaveNoMark() {
        assertThat(hex(List.of())).isEqualTo("80025d2e");
        assertThat(hex(PythonTuple.of())).isEqualTo("8002292e");
        assertThat(hex(Map.of())).isEqualTo("80027d2e");
    }

    @Test
    void containersWrapTheirItemsInMarkAndCloseOpcode() {
        Map<String, Object> dict = new LinkedHashMap<>();
        dict.put("a", List.of(1));
        assertThat(hex(dict)).isEqualTo("80027d28" + "5801000000" + "61" + "5d28" + "4a01000000" + "65" + "752e");
    }

    @Test
    void stringLengthCountsUtf8BytesNotChars() {
        assertThat(hex("é€😀")).isEqualTo("8002" + "5809000000" + "c3a9" + "e282ac" + "f09f9880" + "2e");
    }

    @Test
    void refusesValuesOutsideTheSubsetNamingWhere() {
        assertThatThrownBy(() -> PickleWriter.dumps(List.of(1, new Object())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value[1]");
        assertThatThrownBy(() -> PickleWriter.dumps("\ud800"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
    }

    @Test
    void pythonLoadsWhatIsWritten() {
        PythonInterpreter.require();
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("name", "Zoë 😀");
        kwargs.put("big", 1795938959012L);
        kwargs.put("neg", new BigInteger("-18446744073709551617"));
        kwargs.put("x", 0.1);
        kwargs.put("flags", Arrays.asList(true, false, null));
        kwargs.put("raw", new byte[] {0, (byte) 0xff});
        byte[] pickle = PickleWriter.dumps(PythonTuple.of("f", null, PythonTuple.of(5, -6), kwargs));

        assertThat(PythonInterpreter.unpickle(pickle)).isEqualTo(
                "('f', None, (5, -6), {'name': 'Zo\\xeb \\U0001f600', 'big': 1795938959012,"
                        + " 'neg': -18446744073709551617, 'x': 0.1, 'flags': [True, False, None],"
                        + " 'raw': b'\\x00\\xff'})");
    }
}
