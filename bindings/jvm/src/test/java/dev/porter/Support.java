package dev.porter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where the tests find the porter binary, the fixtures and the shared Realm files (system
 * properties set by {@code make test-jvm}), the keys of the encrypted test files, and the porter
 * command line run as the reference.
 */
final class Support {
    static final Path ROOT = Paths.get(System.getProperty("porter.root", ".")).toAbsolutePath().normalize();
    static final String PORTER = System.getProperty("porter.binary", ROOT.resolve(".build/debug/porter").toString());
    static final Path FIXTURES = Paths.get(System.getProperty("porter.fixtures", ROOT.resolve("Fixtures/realm").toString()));
    static final Path SHARED = Paths.get(System.getProperty("porter.shared", ROOT.resolve("../shared/realm-files").toString()))
            .toAbsolutePath().normalize();

    /** The keys of the encrypted test files (Fixtures/realm/README.md, ../shared/realm-files/README.md, legacy/README.md). */
    static final byte[] KEY_0_63 = range(0);
    static final byte[] KEY_100_163 = range(100);
    static final byte[] KEY_CORE_TESTS =
            "1234567890123456789012345678901123456789012345678901234567890123".getBytes(StandardCharsets.US_ASCII);
    static final Map<String, byte[]> KEYS = new HashMap<>();

    static {
        KEYS.put("every-type-encrypted.realm", KEY_100_163);
        KEYS.put("column-migration-encrypted.realm", KEY_100_163);
        KEYS.put("links-encrypted.realm", KEY_0_63);
        KEYS.put("dev-encrypted-realm-docs.realm", KEY_0_63);
        KEYS.put("core-encrypted-4k-page.realm", KEY_CORE_TESTS);
        KEYS.put("test_shared_decrypt_4k_page.realm", KEY_CORE_TESTS);
        KEYS.put("test_shared_decrypt_64k_page.realm", KEY_CORE_TESTS);
    }

    private Support() {}

    private static byte[] range(int first) {
        byte[] key = new byte[64];
        for (int i = 0; i < 64; i++) key[i] = (byte) (first + i);
        return key;
    }

    static byte[] keyFor(Path path) {
        return KEYS.get(path.getFileName().toString());
    }

    static String hex(byte[] key) {
        StringBuilder out = new StringBuilder();
        for (byte b : key) out.append(String.format("%02x", b & 0xff));
        return out.toString();
    }

    static List<String> keyArgs(byte[] key) {
        return key == null ? List.of() : List.of("--encryption-key", hex(key));
    }

    /** The .realm files directly in {@code folder}, sorted. */
    static List<Path> realmFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.toString().endsWith(".realm") && Files.isRegularFile(p)).sorted().collect(Collectors.toList());
        }
    }

    /** The .realm files under {@code folder} at any depth, sorted. */
    static List<Path> realmFilesBelow(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(p -> p.toString().endsWith(".realm") && Files.isRegularFile(p)).sorted().collect(Collectors.toList());
        }
    }

    /** What one run of the porter command line printed. */
    static final class Run {
        final int status;
        final String out;
        final String err;

        Run(int status, String out, String err) {
            this.status = status;
            this.out = out;
            this.err = err;
        }

        /** Standard output's lines, without the final newline. */
        List<String> lines() {
            if (out.isEmpty()) return List.of();
            String body = out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
            return Arrays.asList(body.split("\n", -1));
        }
    }

    /** Runs {@code porter ARGS}; standard error goes through a file so neither pipe can fill and block. */
    static Run porter(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(PORTER);
        command.addAll(args);
        try {
            Path err = Files.createTempFile("porter-jvm-test", ".err");
            try {
                Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
                process.getOutputStream().close();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int status = process.waitFor();
                return new Run(status, out, Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("cannot run " + command + ": " + e, e);
        }
    }

    static Run porter(String... args) {
        return porter(Arrays.asList(args));
    }

    static List<String> args(Object... parts) {
        List<String> out = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof List) {
                for (Object o : (List<?>) part) out.add(o.toString());
            } else {
                out.add(part.toString());
            }
        }
        return out;
    }

    /** The documents {@code porter export --class className --out -} writes (one per line); it must succeed. */
    static List<String> cliDocuments(Path path, byte[] key, String className, String format, String query) {
        List<String> a = args("export", path, keyArgs(key), "--format", format, "--class", className, "--out", "-", "--quiet");
        if (query != null) a.addAll(List.of("--query", query));
        Run run = porter(a);
        assertEquals(0, run.status, () -> "porter " + a + " failed: " + run.err);
        return run.lines();
    }

    /**
     * Compares the binding's documents with porter's, object by object, as exact text; each of the
     * binding's documents must also parse as a JSON object. Returns the number compared.
     */
    static int assertSameDocuments(String where, List<String> expected, Iterator<String> actual) {
        int index = 0;
        while (actual.hasNext()) {
            String document = actual.next();
            assertNotNull(document, where + " #" + index + ": a null document");
            if (index >= expected.size()) {
                fail(where + ": the binding gave more objects than porter export (" + expected.size() + "); extra #" + index + ": " + document);
            }
            if (!expected.get(index).equals(document)) {
                fail(where + " #" + index + " differs from porter export " + difference(expected.get(index), document));
            }
            Json.object(document);
            index++;
        }
        final int read = index;
        assertEquals(expected.size(), read, () -> where + ": the binding gave " + read + " objects, porter export " + expected.size());
        assertFalse(actual.hasNext(), where + ": the end is not sticky");
        return index;
    }

    /** Where two texts first differ, with some context of each (documents can be megabytes long). */
    static String difference(String expected, String actual) {
        int at = 0;
        while (at < expected.length() && at < actual.length() && expected.charAt(at) == actual.charAt(at)) at++;
        int from = Math.max(0, at - 60);
        return "at character " + at + " (lengths " + expected.length() + " and " + actual.length() + "):\n  porter:  …"
                + expected.substring(from, Math.min(expected.length(), at + 60)) + "…\n  binding: …"
                + actual.substring(from, Math.min(actual.length(), at + 60)) + "…";
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> schemaClasses(String schemaJson) {
        Object classes = Json.object(schemaJson).get("classes");
        assertTrue(classes instanceof List, "the schema has no classes array: " + schemaJson);
        return (List<Map<String, Object>>) classes;
    }

}
