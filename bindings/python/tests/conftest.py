"""Where the tests find the porter binary, the fixtures and the shared Realm files (set by
``make test-python``; defaults: the repository's debug build and folders)."""

import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
PORTER_BINARY = os.environ.get("PORTER_BINARY", str(ROOT / ".build" / "debug" / "porter"))
FIXTURES = pathlib.Path(os.environ.get("PORTER_FIXTURES", str(ROOT / "Fixtures" / "realm")))
SHARED = pathlib.Path(os.environ.get("PORTER_SHARED", str(ROOT.parent / "shared" / "realm-files")))

#: The keys of the encrypted test files (Fixtures/realm/README.md, ../shared/realm-files/README.md).
KEY_0_63 = bytes(range(64))
KEY_100_163 = bytes(range(100, 164))
KEYS = {
    "every-type-encrypted.realm": KEY_100_163,
    "column-migration-encrypted.realm": KEY_100_163,
    "links-encrypted.realm": KEY_0_63,
    "dev-encrypted-realm-docs.realm": KEY_0_63,
}


def fixture_files():
    folders = [FIXTURES, FIXTURES / "written", FIXTURES / "column-migration"]
    return sorted(path for folder in folders for path in folder.glob("*.realm"))


def shared_files():
    return sorted(SHARED.glob("*.realm")) if SHARED.is_dir() else []
