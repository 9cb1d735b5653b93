package dev.porter;

import static dev.porter.Support.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * Every Realm file of Fixtures/realm (and its written/ and column-migration/ folders) and, when
 * present, of ../shared/realm-files (and legacy/, at any depth) read through the binding and
 * compared with the porter command line: the schema with {@code porter schema}, every object of
 * every top-level class with {@code porter export --format ejson-canonical} (and {@code ejson})
 * object by object as exact text, the counts; a file the binding refuses must be refused by
 * {@code porter export} with the same message and nothing written.
 */
class RealmFilesTest {
    private static int files, refused, classes;
    private static long objects;

    @TempDir
    static Path scratch;

    @TestFactory
    Stream<DynamicTest> fixtureFilesEqualPorterExport() throws IOException {
        List<Path> found = new ArrayList<>();
        for (String folder : List.of("", "written", "column-migration")) {
            found.addAll(realmFiles(FIXTURES.resolve(folder)));
        }
        assertTrue(found.size() >= 20, "only " + found.size() + " Realm files found in " + FIXTURES);
        return found.stream().map(path -> DynamicTest.dynamicTest(FIXTURES.relativize(path).toString(), () -> compareFile(path)));
    }

    @TestFactory
    Stream<DynamicTest> sharedFilesEqualPorterExport() throws IOException {
        assumeTrue(Files.isDirectory(SHARED), () -> "skipped: the shared Realm files are not on this machine (" + SHARED + ")");
        List<Path> found = new ArrayList<>(realmFiles(SHARED));
        Path legacy = SHARED.resolve("legacy");
        if (Files.isDirectory(legacy)) found.addAll(realmFilesBelow(legacy));
        assertFalse(found.isEmpty(), "no Realm file in " + SHARED);
        return found.stream().map(path -> DynamicTest.dynamicTest(SHARED.relativize(path).toString(), () -> compareFile(path)));
    }

    @AfterAll
    static void summary() {
        System.out.printf("RealmFilesTest: %d files (%d refused as by porter), %d classes, %d objects equal to porter export%n",
                files, refused, classes, objects);
    }

    static void compareFile(Path path) {
        byte[] key = keyFor(path);
        PorterFile file;
        try {
            file = PorterFile.open(path.toString(), key);
        } catch (PorterException error) {
            assertRefusedAsByPorter(path, key, error);
            return;
        }
        int fileClasses = 0;
        long fileObjects = 0;
        try (file) {
            String schema = file.schemaJson();
            Run cli = porter(args("schema", path, keyArgs(key)));
            assertEquals(0, cli.status, () -> "porter schema " + path + ": " + cli.err);
            assertEquals(Json.parse(cli.out), Json.parse(schema), path + ": the schema differs from porter schema");
            List<Map<String, Object>> described = schemaClasses(schema);
            List<String> names = described.stream().map(c -> (String) c.get("name")).collect(Collectors.toList());
            assertEquals(names, file.classes(), path + ": classes() differs from the schema's classes");
            for (Map<String, Object> c : described) {
                String name = (String) c.get("name");
                String where = path + " " + name;
                long count = file.count(name);
                if (Boolean.TRUE.equals(c.get("embedded"))) {
                    // Embedded objects are read inside their parents; the command line refuses them too.
                    PorterException error = assertThrows(PorterException.class, () -> file.objects(name), where);
                    assertEquals(Status.USAGE, error.status(), where);
                    assertTrue(error.getMessage().contains("embedded"), error.getMessage());
                    continue;
                }
                int read = compareClass(path, key, file, name, Format.EJSON_CANONICAL);
                if (read >= 0) assertEquals(count, read, where + ": count() differs from the objects read");
                assertEquals(read, compareClass(path, key, file, name, Format.EJSON_RELAXED), where + ": relaxed");
                if (read < 0) {
                    System.out.printf("  %-70s class %s refused, as by porter export%n", path, name);
                    continue;
                }
                fileClasses++;
                fileObjects += read;
            }
        }
        synchronized (RealmFilesTest.class) {
            files++;
            classes += fileClasses;
            objects += fileObjects;
        }
        System.out.printf("  %-70s %d classes, %d objects equal to porter export%n", path, fileClasses, fileObjects);
    }

    /**
     * One class through the binding against {@code porter export --class}: the same documents; or,
     * when porter export fails, the binding fails too, with porter's message, after exactly the
     * documents porter wrote before failing. Returns the number of objects, -1 when both failed.
     */
    static int compareClass(Path path, byte[] key, PorterFile file, String name, Format format) {
        String formatName = format == Format.EJSON_CANONICAL ? "ejson-canonical" : format == Format.JSON ? "json" : "ejson";
        String where = path + " " + name + " (" + formatName + ")";
        Run cli = porter(args("export", path, keyArgs(key), "--format", formatName, "--class", name, "--out", "-", "--quiet"));
        if (cli.status == 0) {
            try (PorterCursor<String> cursor = file.objects(name, null, format)) {
                return assertSameDocuments(where, cli.lines(), cursor);
            }
        }
        List<String> read = new ArrayList<>();
        PorterException error = assertThrows(PorterException.class, () -> {
            try (PorterCursor<String> cursor = file.objects(name, null, format)) {
                cursor.forEachRemaining(read::add);
            }
        }, () -> where + ": porter export failed (" + cli.err.strip() + ") but the binding read " + read.size() + " objects");
        assertEquals(cli.lines(), read, where + ": the objects before the failure differ from porter export's");
        assertTrue(cli.err.contains(error.getMessage()),
                () -> where + ": the binding's message is not porter's\n  binding: " + error.getMessage() + "\n  porter:  " + cli.err.strip());
        return -1;
    }

    private static void assertRefusedAsByPorter(Path path, byte[] key, PorterException error) {
        Path out = scratch.resolve("refused-" + path.getFileName());
        Run cli = porter(args("export", path, keyArgs(key), "--format", "ejson-canonical", "--out", out, "--quiet"));
        assertNotEquals(0, cli.status, () -> path + ": the binding refused (" + error.getMessage() + ") but porter export read it");
        assertTrue(cli.err.contains(error.getMessage()),
                () -> path + ": the binding's message is not porter's\n  binding: " + error.getMessage() + "\n  porter:  " + cli.err);
        assertTrue(error.getMessage().contains(path.toString()), "the message does not name the file: " + error.getMessage());
        assertTrue(error.code() >= 1 && error.code() <= 9, "status " + error.code());
        assertFalse(Files.exists(out), "porter export left " + out);
        synchronized (RealmFilesTest.class) {
            files++;
            refused++;
        }
        System.out.printf("  %-70s refused (%s), as by porter: %s%n", path, error.status(), error.getMessage());
    }

    /** The comparison can fail: one changed character, a missing and an extra object are each caught. */
    @Test
    void comparisonFailsOnAPlantedDifference() {
        Path path = FIXTURES.resolve("every-type.realm");
        List<String> expected = cliDocuments(path, null, "Every", "ejson-canonical", null);
        List<String> read = new ArrayList<>();
        try (PorterFile file = PorterFile.open(path)) {
            file.objects("Every").forEachRemaining(read::add);
        }
        assertTrue(read.size() >= 2, "every-type.realm has " + read.size() + " Every objects");
        assertEquals(read.size(), assertSameDocuments("as read", expected, read.iterator()));
        List<String> changed = new ArrayList<>(read);
        String second = changed.get(1);
        int middle = second.indexOf("\"int\"");
        assertTrue(middle > 0, second);
        changed.set(1, second.substring(0, middle) + "\"Int\"" + second.substring(middle + 5));
        assertThrows(AssertionFailedError.class, () -> assertSameDocuments("changed", expected, changed.iterator()));
        assertThrows(AssertionFailedError.class, () -> assertSameDocuments("missing", expected, read.subList(1, read.size()).iterator()));
        List<String> extra = new ArrayList<>(read);
        extra.add(read.get(0));
        assertThrows(AssertionFailedError.class, () -> assertSameDocuments("extra", expected, extra.iterator()));
    }
}
