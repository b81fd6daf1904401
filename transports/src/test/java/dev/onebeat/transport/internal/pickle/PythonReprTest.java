package dev.onebeat.transport.internal.pickle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PythonReprTest {

    @Test
    void floatsSwitchToExponentFormWhereRepr() {
        assertThat(Arrays.asList(1.0, 0.1, 0.0001, 0.00001, 1e15, 1e16, 123456789.125, -2.5e-7, -0.0, 1e22))
                .extracting(PythonRepr::ofFloat)
                .containsExactly("1.0", "0.1", "0.0001", "1e-05", "1000000000000000.0", "1e+16", "123456789.125",
                        "-2.5e-07", "-0.0", "1e+22");
    }

    @Test
    void stringsPickQuotesAndEscapesAsPython() {
        assertThat(PythonRepr.of("it's")).isEqualTo("\"it's\"");
        assertThat(PythonRepr.of("a'\"b")).isEqualTo("'a\\'\"b'");
        assertThat(PythonRepr.of("tab\there\u0001é")).isEqualTo("'tab\\there\\x01é'");
    }

    @Test
    void containersNestLikePython() {
        Map<String, Object> dict = new LinkedHashMap<>();
        dict.put("k", Arrays.asList(null, true));
        assertThat(PythonRepr.of(PythonTuple.of(1, dict))).isEqualTo("(1, {'k': [None, True]})");
        assertThat(PythonRepr.of(PythonTuple.of("x"))).isEqualTo("('x',)");
        assertThat(PythonRepr.of(List.of())).isEqualTo("[]");
    }
}
