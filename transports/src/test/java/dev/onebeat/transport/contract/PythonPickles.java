package dev.onebeat.transport.contract;

import dev.onebeat.transport.testing.PythonInterpreter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Loads the pickles of RQ and arq jobs with Debian's real Python, many in one run, as a worker would. */
final class PythonPickles {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PythonPickles() {
    }

    /**
     * @param expression a Python expression of {@code d} (one item's bytes) giving a JSON-able value,
     *     such as {@code pickle.loads(zlib.decompress(d[0]))[0]}; {@code d} is a list of the item's parts
     * @param items the parts of each item, {@code null} for an absent part
     * @return the value of the expression for each item, as JSON
     */
    static List<JsonNode> load(String expression, List<List<byte[]>> items) {
        if (items.isEmpty()) {
            return List.of();
        }
        List<List<String>> hex = new ArrayList<>();
        for (List<byte[]> item : items) {
            List<String> parts = new ArrayList<>();
            item.forEach(part -> parts.add(part == null ? null : HexFormat.of().formatHex(part)));
            hex.add(parts);
        }
        String script = "import sys, json, pickle, zlib\n"
                + "items = json.loads(bytes.fromhex(sys.argv[1]).decode())\n"
                + "def load(d):\n"
                + "    return " + expression + "\n"
                + "print(json.dumps([load([None if p is None else bytes.fromhex(p) for p in item]) for item in items]))\n";
        String output = PythonInterpreter.run(script, JSON.writeValueAsString(hex).getBytes(StandardCharsets.UTF_8));
        List<JsonNode> values = new ArrayList<>();
        JSON.readTree(output).forEach(values::add);
        return values;
    }
}
