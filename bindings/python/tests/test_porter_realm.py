"""porter_realm against the porter command line: every Realm file of Fixtures/realm (and of
../shared/realm-files when present) read object by object and compared with
``porter export --format ejson-canonical`` of the same file; types, queries, exports, reports,
errors."""

import datetime
import decimal
import filecmp
import json
import os
import subprocess
import sys
import uuid

import pytest

import porter_realm
from conftest import FIXTURES, KEY_0_63, KEY_100_163, KEYS, PORTER_BINARY, SHARED, fixture_files, shared_files


def porter(*args, check=True):
    return subprocess.run([PORTER_BINARY, *map(str, args)], capture_output=True, text=True, check=check)


def key_args(key):
    return ["--encryption-key", key.hex()] if key else []


def cli_documents(path, key, class_name, fmt="ejson-canonical", query=None):
    args = ["export", path, *key_args(key), "--format", fmt, "--class", class_name, "--out", "-", "--quiet"]
    if query is not None:
        args += ["--query", query]
    return porter(*args).stdout.splitlines()


def comparable(value):
    """``value`` with NaN (unequal to itself) as a marker and dates with their nanoseconds, so
    that equal objects compare equal."""
    if isinstance(value, (float, decimal.Decimal)) and value != value:
        return ("NaN", type(value).__name__, str(value))
    if isinstance(value, porter_realm.Timestamp):
        return ("date", value.isoformat(), value.nanoseconds)
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [comparable(v) for v in value]]
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items()}
    return value


def top_level(realm):
    return [c["name"] for c in realm.schema["classes"] if not c.get("embedded")]


def compare_file(path):
    key = KEYS.get(path.name)
    try:
        realm = porter_realm.open(path, key=key)
    except porter_realm.PorterError as error:
        # The command line refuses it too, with the same message.
        result = porter("inspect", path, *key_args(key), check=False)
        assert result.returncode != 0, f"{path}: the package refused ({error}) but porter read it"
        assert error.message in result.stderr
        return 0
    total = 0
    with realm:
        schema = json.loads(porter("schema", path, *key_args(key)).stdout)
        assert realm.schema == schema
        for name in top_level(realm):
            expected = cli_documents(path, key, name)
            assert list(realm.documents(name)) == expected, f"{path} {name}"
            assert list(realm.documents(name, canonical=False)) == cli_documents(path, key, name, "ejson")
            objects = list(realm.objects(name, nanoseconds=False))
            assert comparable(objects) == comparable([porter_realm.decode(json.loads(line)) for line in expected])
            # With nanoseconds: the same objects, dates to the nanosecond of porter export --format json.
            plain = [json.loads(line) for line in cli_documents(path, key, name, "json")]
            exact = list(realm.objects(name))
            assert comparable(exact) == comparable(
                [porter_realm._ejson.with_nanoseconds(o, p) for o, p in zip(objects, plain)]
            )
            assert len(objects) == realm.count(name)
            total += len(objects)
    return total


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.name)
def test_fixture_files_equal_porter_export(path):
    compare_file(path)


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the shared Realm files are not on this machine ({SHARED})")
@pytest.mark.parametrize("path", shared_files(), ids=lambda p: p.name)
def test_shared_files_equal_porter_export(path):
    compare_file(path)


def test_python_types_of_every_type():
    with porter_realm.open(FIXTURES / "every-type.realm") as realm:
        every = list(realm.objects("Every"))
        assert every
        first = every[0]
        assert isinstance(first["_id"], int)
        assert isinstance(first["decimal128"], decimal.Decimal)
        assert isinstance(first["objectId"], porter_realm.ObjectId) and len(str(first["objectId"])) == 24
        assert isinstance(first["uuid"], uuid.UUID)
        assert isinstance(first["data"], bytes)
        assert isinstance(first["date"], datetime.datetime) and first["date"].tzinfo is not None
        # The nanoseconds porter export --format json writes (Extended JSON holds milliseconds).
        plain = json.loads(cli_documents(FIXTURES / "every-type.realm", None, "Every", "json")[0])
        assert plain["date"].endswith(".999999999Z") and first["date"].nanoseconds == 999_999_999
        assert first["date"].microsecond == 999_999 and first["date"].isoformat().startswith("1969-12-31T23:59:59")
        assert plain["dateOpt"] == "1900-01-01T00:00:00.123456789Z" and first["dateOpt"].nanoseconds == 123_456_789
        assert all(d.nanoseconds % 1_000_000 == 0 for d in [next(realm.objects("Every", nanoseconds=False))["date"]])
        assert isinstance(first["intList"], list) and isinstance(first["intMap"], dict)
        embedded = [o for o in every if isinstance(o.get("emb"), dict)]
        assert embedded, "no embedded object read as a dict"
        links = [o["mixed"] for o in every if isinstance(o.get("mixed"), porter_realm.Link)]
        assert links, "no link in a mixed read as a Link"


def test_query_equals_porter_export_query():
    path = FIXTURES / "every-type.realm"
    with porter_realm.open(path) as realm:
        for query in ["_id > 1", "string BEGINSWITH 'a' OR intOpt == nil", "FALSEPREDICATE"]:
            assert list(realm.documents("Every", query=query)) == cli_documents(path, None, "Every", query=query)
        with pytest.raises(porter_realm.PorterError) as error:
            realm.objects("Every", query="_id >")
        assert error.value.name == "usage" and "query" in error.value.message
        with pytest.raises(porter_realm.PorterError) as error:
            realm.objects("Emb")
        assert "embedded" in error.value.message


@pytest.mark.parametrize("fmt", ["ejson-canonical", "ejson", "json", "bson", "csv"])
def test_export_folders_equal_porter_export(tmp_path, fmt):
    path = FIXTURES / "every-type-encrypted.realm"
    calls = []
    with porter_realm.open(path, key=KEY_100_163.hex()) as realm:
        realm.export(tmp_path / "lib", format=fmt, progress=lambda done, total: calls.append((done, total)))
    porter("export", path, *key_args(KEY_100_163), "--format", fmt, "--out", tmp_path / "cli", "--quiet")
    comparison = filecmp.dircmp(tmp_path / "lib", tmp_path / "cli")
    assert comparison.left_only == comparison.right_only == comparison.diff_files == []
    assert sorted(os.listdir(tmp_path / "lib")) == sorted(os.listdir(tmp_path / "cli"))
    assert calls and calls[-1][0] == calls[-1][1] > 0


def test_export_one_file_formats_and_cancel(tmp_path):
    with porter_realm.open(FIXTURES / "every-type.realm") as realm:
        realm.export(tmp_path / "out.sqlite", format="sqlite")
        realm.export(tmp_path / "out.realm", format="realm")
        with porter_realm.open(tmp_path / "out.realm") as copy:
            assert list(copy.documents("Every")) == list(realm.documents("Every"))
        with pytest.raises(porter_realm.PorterError) as error:
            realm.export(tmp_path / "out.realm", format="realm")
        assert error.value.name == "io" and "already exists" in error.value.message
        with pytest.raises(porter_realm.Cancelled):
            realm.export(tmp_path / "cancelled", format="bson", progress=lambda done, total: True)
        assert not (tmp_path / "cancelled").exists()
        with pytest.raises(KeyError):
            realm.export(tmp_path / "raised", format="bson", progress=lambda done, total: {}["stop"])
        assert not (tmp_path / "raised").exists()


def test_check_and_forensic_summary(tmp_path):
    report = porter_realm.check(FIXTURES / "every-type.realm")
    assert report == json.loads(porter("check", "--json", FIXTURES / "every-type.realm").stdout)
    assert report["ok"] is True
    summary = porter_realm.inspect(FIXTURES / "every-type.realm")
    assert summary["readable"] and summary["fileFormat"] == 24 and "Realm Swift" in summary["writers"]
    assert len(summary["header"]["topRefs"]) == 2
    assert {c["name"]: c["objects"] for c in summary["classes"]}["Every"] > 0
    encrypted = porter_realm.inspect(FIXTURES / "every-type-encrypted.realm")
    assert not encrypted["readable"] and encrypted["diagnosis"] == "encrypted-no-key" and encrypted["reason"]
    with_key = porter_realm.inspect(FIXTURES / "every-type-encrypted.realm", key=KEY_100_163)
    assert with_key["readable"] and with_key["encrypted"]
    truncated = tmp_path / "truncated.realm"
    data = (FIXTURES / "every-type.realm").read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    damaged = porter_realm.inspect(truncated)
    assert not damaged["readable"] and damaged["reason"]
    assert porter_realm.check(truncated)["ok"] is False
    empty = tmp_path / "empty.realm"
    empty.write_bytes(b"")
    assert porter_realm.inspect(empty)["diagnosis"] == "empty"


def test_python_m_prints_the_summary():
    result = subprocess.run(
        [sys.executable, "-m", "porter_realm", str(FIXTURES / "every-type.realm")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "File format: 24" in result.stdout and "top refs" in result.stdout and "Every" in result.stdout
    result = subprocess.run(
        [sys.executable, "-m", "porter_realm", str(FIXTURES / "every-type-encrypted.realm")],
        capture_output=True, text=True,
    )
    assert result.returncode == 1 and "Unreadable:" in result.stdout


def test_errors(tmp_path):
    with pytest.raises(porter_realm.PorterError) as error:
        porter_realm.open(tmp_path / "missing.realm")
    assert error.value.name == "io" and str(tmp_path / "missing.realm") in error.value.message
    with pytest.raises(porter_realm.PorterError) as error:
        porter_realm.open(FIXTURES / "every-type-encrypted.realm", key=KEY_0_63)
    assert error.value.name == "not-a-realm-file" and "key" in error.value.message
    with pytest.raises(porter_realm.PorterError) as error:
        porter_realm.open(FIXTURES / "every-type-encrypted.realm")
    assert error.value.name == "not-a-realm-file"
    with pytest.raises(ValueError):
        porter_realm.open(FIXTURES / "every-type.realm", key=b"short")
    realm = porter_realm.open(FIXTURES / "every-type.realm")
    with pytest.raises(porter_realm.PorterError) as error:
        realm.count("NoSuchClass")
    assert error.value.name == "not-found"
    cursor = realm.objects("Every")
    realm.close()
    realm.close()
    assert next(cursor)["_id"] is not None  # a cursor outlives its file
    cursor.close()
    with pytest.raises(porter_realm.PorterError) as error:
        realm.count("Every")
    assert error.value.name == "closed-handle"


DAMAGED_OLD_FILE = SHARED / "legacy" / "core" / "test_upgrade_database_4_10_to_11.realm"


@pytest.mark.skipif(not DAMAGED_OLD_FILE.is_file(), reason=f"{DAMAGED_OLD_FILE} is absent (no ../shared)")
def test_a_file_failing_its_check_is_not_read_unless_asked(tmp_path):
    # It opens (the schema and counts are readable), but its index disagrees with its column:
    # reading objects out of it, or exporting it, is refused as `porter export` refuses it.
    with porter_realm.open(DAMAGED_OLD_FILE) as realm:
        name = realm.classes[0]
        with pytest.raises(porter_realm.PorterError) as refused:
            next(iter(realm.objects(name)))
        assert ": refused: the file fails its check: " in refused.value.message
        expected = subprocess.run(
            [PORTER_BINARY, "export", str(DAMAGED_OLD_FILE), "--out", str(tmp_path / "cli"), "--format", "json"],
            capture_output=True, text=True,
        )
        assert expected.returncode == 1 and refused.value.message in expected.stderr
        with pytest.raises(porter_realm.PorterError):
            realm.export(tmp_path / "out", format="json")
        assert not (tmp_path / "out").exists()
    with porter_realm.open(DAMAGED_OLD_FILE, check=False) as realm:
        # Forensic reading: what the check would refuse is read up to the first damaged object.
        try:
            for _ in realm.objects(realm.classes[0]):
                pass
        except porter_realm.PorterError as error:
            assert "refused: the file fails its check" not in error.message


def test_one_cursor_of_plain_json_gives_what_the_two_cursor_path_gives():
    path = FIXTURES / "every-type.realm"
    with porter_realm.open(path) as realm:
        for name in top_level(realm):
            fast = list(realm.objects(name))
            slow = list(realm._slow_objects(name, None, True))
            assert comparable(fast) == comparable(slow), name
            assert len(fast) == realm.count(name)


def test_a_value_the_plain_form_cannot_give_switches_to_the_two_cursor_path(monkeypatch):
    from porter_realm import _plain

    # Dates outside datetime's years have no plain conversion here.
    for text in ("+10000-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "2020-01-01T00:00:00.1234567890Z"):
        with pytest.raises(_plain.Unconvertible):
            _plain._date(text)
    path = FIXTURES / "inner-nodes.realm"
    with porter_realm.open(path) as realm:
        name = max(top_level(realm), key=realm.count)
        expected = list(realm._slow_objects(name, None, True))
        assert len(expected) == 1000
        iterator = realm.objects(name)
        assert isinstance(iterator, porter_realm._Batched)
        iterator.BATCH = 300  # a switch in the fourth batch, past whole batches already read
        convert = iterator._convert
        calls = []

        def failing_at_700(document):
            calls.append(1)
            if len(calls) == 700:
                raise _plain.Unconvertible("planted")
            return convert(document)

        iterator._convert = failing_at_700
        got = list(iterator)
        assert iterator._slow is not None
        assert comparable(got) == comparable(expected)


def test_a_class_with_mixed_values_reads_through_extended_json():
    with porter_realm.open(FIXTURES / "every-type.realm") as realm:
        assert not isinstance(realm.objects("Every"), porter_realm._Batched)
