package dev.porter;

import static dev.porter.Support.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The binding's API beyond reading: keys, queries, BSON, streams, exports, reports, threads, errors. */
class PorterFileTest {
    static final Path EVERY = FIXTURES.resolve("every-type.realm");
    static final Path ENCRYPTED = FIXTURES.resolve("every-type-encrypted.realm");

    @TempDir
    Path scratch;

    static PorterException refused(Status status, String words, Executable call) {
        PorterException error = assertThrows(PorterException.class, call);
        assertEquals(status, error.status(), error.getMessage());
        assertEquals(status.code(), error.code());
        assertFalse(error.getMessage().isBlank(), "an empty message");
        assertTrue(error.getMessage().contains(words), "the message lacks '" + words + "': " + error.getMessage());
        return error;
    }

    @Test
    void versionAndAbi() {
        assertEquals(Native.ABI_VERSION, PorterFile.abiVersion());
        assertTrue(PorterFile.version().matches("\\d+\\.\\d+\\.\\d+.*"), PorterFile.version());
    }

    @Test
    void encryptedFileReadsWithItsKeyOnly() {
        try (PorterFile file = PorterFile.open(ENCRYPTED, KEY_100_163); PorterFile plain = PorterFile.open(EVERY)) {
            assertTrue(file.count("Every") > 0);
            List<String> expected = cliDocuments(ENCRYPTED, KEY_100_163, "Every", "ejson-canonical", null);
            assertSameDocuments("encrypted Every", expected, file.objects("Every"));
            // The same objects as the plain twin.
            assertSameDocuments("plain Every", expected, plain.objects("Every"));
        }
        refused(Status.NOT_A_REALM_FILE, "key", () -> PorterFile.open(ENCRYPTED, KEY_0_63));
        refused(Status.NOT_A_REALM_FILE, "encrypt", () -> PorterFile.open(ENCRYPTED, null));
        refused(Status.USAGE, "not encrypted", () -> PorterFile.open(EVERY, KEY_0_63));
        refused(Status.USAGE, "64", () -> PorterFile.open(ENCRYPTED, new byte[16]));
        refused(Status.NOT_A_REALM_FILE, ENCRYPTED.toString(), () -> PorterFile.open(ENCRYPTED, new byte[64]));
    }

    @Test
    void queriesEqualPorterExportQuery() {
        try (PorterFile file = PorterFile.open(EVERY)) {
            for (String query : List.of("_id > 1", "string BEGINSWITH 'a' OR intOpt == nil", "TRUEPREDICATE", "FALSEPREDICATE")) {
                List<String> expected = cliDocuments(EVERY, null, "Every", "ejson-canonical", query);
                int read = assertSameDocuments("Every where " + query, expected, file.objects("Every", query));
                if (query.equals("FALSEPREDICATE")) assertEquals(0, read);
                if (query.equals("TRUEPREDICATE")) assertEquals(file.count("Every"), read);
            }
            List<String> plain = cliDocuments(EVERY, null, "Every", "json", null);
            assertSameDocuments("Every as plain JSON", plain, file.objects("Every", null, Format.JSON));
            refused(Status.USAGE, "query", () -> file.objects("Every", "_id >"));
            refused(Status.USAGE, "embedded", () -> file.objects("Emb"));
            refused(Status.NOT_FOUND, "NoSuchClass", () -> file.objects("NoSuchClass"));
            refused(Status.NOT_FOUND, "Nope", () -> file.count("Nope"));
            assertThrows(IllegalArgumentException.class, () -> file.objects("Every", null, Format.BSON));
        }
    }

    @Test
    void bsonDocumentsAndStreams() {
        try (PorterFile file = PorterFile.open(EVERY)) {
            long count = file.count("Every");
            long bson = 0;
            try (PorterCursor<byte[]> cursor = file.bson("Every", null)) {
                while (cursor.hasNext()) {
                    byte[] document = cursor.next();
                    int size = ByteBuffer.wrap(document).order(ByteOrder.LITTLE_ENDIAN).getInt();
                    assertEquals(document.length, size, "a BSON document's length prefix");
                    assertEquals(0, document[document.length - 1]);
                    bson++;
                }
            }
            assertEquals(count, bson);
            try (Stream<String> objects = file.stream("Every", "_id > 1")) {
                assertEquals(cliDocuments(EVERY, null, "Every", "ejson-canonical", "_id > 1"), objects.collect(Collectors.toList()));
            }
            // A stream closed early closes its cursor.
            PorterCursor<String> cursor = file.objects("Every");
            try (Stream<String> objects = cursor.stream()) {
                assertTrue(objects.findFirst().isPresent());
            }
            refused(Status.CLOSED_HANDLE, "closed", cursor::hasNext);
        }
    }

    @Test
    void cursorOutlivesItsFileAndRefusesUseAfterClose() {
        PorterFile file = PorterFile.open(EVERY);
        long count = file.count("Every");
        PorterCursor<String> cursor = file.objects("Every");
        String first = cursor.next();
        file.close();
        file.close(); // a second close does nothing
        long rest = 0;
        while (cursor.hasNext()) {
            cursor.next();
            rest++;
        }
        assertEquals(count - 1, rest);
        assertFalse(cursor.hasNext(), "the end is sticky");
        cursor.close();
        assertTrue(first.startsWith("{"));
        refused(Status.CLOSED_HANDLE, "closed", () -> file.count("Every"));
        refused(Status.CLOSED_HANDLE, "closed", file::schemaJson);
        refused(Status.CLOSED_HANDLE, "closed", file::classes);
        refused(Status.CLOSED_HANDLE, "closed", () -> file.objects("Every"));
        refused(Status.CLOSED_HANDLE, "closed", () -> file.export(scratch.resolve("after-close").toString(), "bson"));
        assertFalse(Files.exists(scratch.resolve("after-close")));
        PorterFile again = PorterFile.open(EVERY);
        PorterCursor<String> early = again.objects("Every");
        early.close();
        early.close();
        refused(Status.CLOSED_HANDLE, "closed", early::next);
        again.close();
    }

    @Test
    void nullArgumentsThrowAndNeverCrash() {
        refused(Status.INVALID_ARGUMENT, "", () -> PorterFile.open((String) null, null));
        refused(Status.INVALID_ARGUMENT, "", () -> PorterFile.check(null, null));
        refused(Status.INVALID_ARGUMENT, "", () -> PorterFile.inspect(null, KEY_0_63));
        refused(Status.INVALID_ARGUMENT, "NUL", () -> PorterFile.open(EVERY + "\0.realm"));
        assertThrows(NullPointerException.class, () -> PorterFile.open((Path) null));
        try (PorterFile file = PorterFile.open(EVERY)) {
            refused(Status.INVALID_ARGUMENT, "", () -> file.count(null));
            refused(Status.INVALID_ARGUMENT, "", () -> file.objects(null));
            refused(Status.INVALID_ARGUMENT, "", () -> file.objects("Every", null, null));
            refused(Status.INVALID_ARGUMENT, "", () -> file.bson(null, null));
            refused(Status.INVALID_ARGUMENT, "", () -> file.export(null, "bson"));
            refused(Status.INVALID_ARGUMENT, "", () -> file.export(scratch.resolve("x").toString(), null));
            refused(Status.INVALID_ARGUMENT, "yaml", () -> file.export(scratch.resolve("y").toString(), "yaml"));
            assertFalse(Files.exists(scratch.resolve("x")) || Files.exists(scratch.resolve("y")));
            // Still usable after all that.
            assertTrue(file.count("Every") > 0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ejson-canonical", "ejson", "json", "bson", "csv"})
    void exportFoldersEqualPorterExport(String format) throws IOException {
        Path lib = scratch.resolve("lib");
        Path cli = scratch.resolve("cli");
        List<long[]> calls = new ArrayList<>();
        try (PorterFile file = PorterFile.open(ENCRYPTED, KEY_100_163)) {
            file.export(lib.toString(), format, (done, total) -> calls.add(new long[] {done, total}));
        }
        Run run = porter(args("export", ENCRYPTED, keyArgs(KEY_100_163), "--format", format, "--out", cli, "--quiet"));
        assertEquals(0, run.status, run.err);
        assertSameTree(cli, lib);
        assertTrue(calls.size() >= 2, calls.size() + " progress calls");
        long[] last = calls.get(calls.size() - 1);
        assertTrue(last[0] == last[1] && last[1] > 0, "the last progress call: " + last[0] + " of " + last[1]);
        assertEquals(0, calls.get(0)[0]);
    }

    /** The same file names, the same bytes. */
    static void assertSameTree(Path expected, Path actual) throws IOException {
        List<Path> want, got;
        try (Stream<Path> a = Files.walk(expected); Stream<Path> b = Files.walk(actual)) {
            want = a.map(expected::relativize).sorted().collect(Collectors.toList());
            got = b.map(actual::relativize).sorted().collect(Collectors.toList());
        }
        assertEquals(want, got, "the exported files");
        assertTrue(want.size() > 2, "only " + want);
        for (Path name : want) {
            Path a = expected.resolve(name);
            if (Files.isRegularFile(a)) {
                assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(actual.resolve(name)), name + " differs from porter export's");
            }
        }
    }

    @Test
    void oneFileExportsAndCancellation() throws IOException {
        try (PorterFile file = PorterFile.open(EVERY)) {
            Path sqlite = scratch.resolve("out.sqlite");
            file.export(sqlite.toString(), "sqlite");
            assertTrue(Files.size(sqlite) > 0);
            refused(Status.IO, "exists", () -> file.export(sqlite.toString(), "sqlite"));
            Path realm = scratch.resolve("out.realm");
            file.export(realm.toString(), "realm");
            try (PorterFile copy = PorterFile.open(realm)) {
                List<String> original = new ArrayList<>();
                file.objects("Every").forEachRemaining(original::add);
                assertSameDocuments("the exported Realm file", original, copy.objects("Every"));
            }
            refused(Status.IO, "exists", () -> file.export(realm.toString(), "realm"));
            // Cancelled at once, cancelled half-way, and a listener that throws: nothing left behind.
            for (String format : List.of("bson", "sqlite", "json")) {
                Path out = scratch.resolve("cancelled." + format);
                refused(Status.CANCELLED, "", () -> file.export(out.toString(), format, (done, total) -> false));
                assertFalse(Files.exists(out), "a cancelled export left " + out);
            }
            Path many = FIXTURES.resolve("written/many-objects.realm");
            try (PorterFile big = PorterFile.open(many)) {
                AtomicLong seen = new AtomicLong();
                Path out = scratch.resolve("half");
                refused(Status.CANCELLED, "", () -> big.export(out.toString(), "ejson", (done, total) -> {
                    seen.set(done);
                    return done == 0 || done < total / 2;
                }));
                assertTrue(seen.get() > 0, "the export was cancelled after " + seen.get() + " objects");
                assertFalse(Files.exists(out), "a cancelled export left " + out);
            }
            Path thrown = scratch.resolve("thrown");
            IllegalStateException stop = new IllegalStateException("stop here");
            IllegalStateException caught = assertThrows(IllegalStateException.class,
                    () -> file.export(thrown.toString(), "bson", (done, total) -> {
                        throw stop;
                    }));
            assertSame(stop, caught);
            assertFalse(Files.exists(thrown));
            try (Stream<Path> left = Files.list(scratch)) {
                assertEquals(List.of("out.realm", "out.sqlite"),
                        left.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList()), "staged files left behind");
            }
        }
    }

    @Test
    void checkAndInspectReports() throws IOException {
        String check = PorterFile.check(EVERY.toString(), null);
        Run cli = porter("check", "--json", EVERY.toString());
        assertEquals(Json.parse(cli.out), Json.parse(check));
        assertEquals(Boolean.TRUE, Json.object(check).get("ok"));
        Map<String, Object> summary = Json.object(PorterFile.inspect(EVERY.toString(), null));
        assertEquals(Boolean.TRUE, summary.get("readable"));
        assertEquals(24, ((Number) summary.get("fileFormat")).intValue());
        assertEquals(2, ((List<?>) ((Map<?, ?>) summary.get("header")).get("topRefs")).size());
        Map<String, Object> locked = Json.object(PorterFile.inspect(ENCRYPTED.toString(), null));
        assertEquals(Boolean.FALSE, locked.get("readable"));
        assertTrue(locked.get("reason") instanceof String);
        Map<String, Object> unlocked = Json.object(PorterFile.inspect(ENCRYPTED.toString(), KEY_100_163));
        assertEquals(Boolean.TRUE, unlocked.get("encrypted"));
        // A truncated copy: refused by open, reported by check and inspect.
        byte[] bytes = Files.readAllBytes(EVERY);
        Path truncated = scratch.resolve("truncated.realm");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        refused(Status.NOT_A_REALM_FILE, truncated.toString(), () -> PorterFile.open(truncated));
        assertEquals(Boolean.FALSE, Json.object(PorterFile.check(truncated.toString(), null)).get("ok"));
        assertEquals(Boolean.FALSE, Json.object(PorterFile.inspect(truncated.toString(), null)).get("readable"));
        Path missing = scratch.resolve("missing.realm");
        refused(Status.IO, missing.toString(), () -> PorterFile.open(missing));
        refused(Status.IO, missing.toString(), () -> PorterFile.check(missing.toString(), null));
        Path foreign = scratch.resolve("notes.realm");
        Files.writeString(foreign, "{\"not\": \"a realm file\"}");
        refused(Status.NOT_A_REALM_FILE, "JSON", () -> PorterFile.open(foreign));
    }

    @Test
    void threadsShareOneFile() throws InterruptedException {
        try (PorterFile file = PorterFile.open(EVERY)) {
            long count = file.count("Every");
            long[] read = new long[4];
            Throwable[] failed = new Throwable[4];
            Thread[] threads = new Thread[4];
            for (int t = 0; t < 4; t++) {
                final int i = t;
                threads[t] = new Thread(() -> {
                    try {
                        for (int round = 0; round < 3; round++) {
                            try (PorterCursor<String> cursor = file.objects("Every")) {
                                while (cursor.hasNext()) {
                                    cursor.next();
                                    read[i]++;
                                }
                            }
                            assertTrue(file.schemaJson().contains("\"classes\""));
                        }
                    } catch (Throwable e) {
                        failed[i] = e;
                    }
                });
                threads[t].start();
            }
            for (int t = 0; t < 4; t++) {
                threads[t].join();
                final Throwable thrown = failed[t];
                assertNull(thrown, () -> "a thread failed: " + thrown);
                assertEquals(3 * count, read[t]);
            }
        }
    }
}
