#!/usr/bin/env python3
"""End-to-end test of `porter studio` in a real browser (headless Chromium through Selenium).

Usage: test_studio.py PORTER_BINARY [DOCS_DIR]

Opens the studio on a Porter database made from the every-type fixture and on a real Realm file
from Fixtures/realm/, and does what a person does: click a class, read cells (checked against
`porter export`), follow a link and come back, run a query, sort, download a CSV export, and with
--write edit a value and commit (and on a Realm file: commit, then Save). Saves screenshots of the classes view, an object table and the
schema diagram into DOCS_DIR (default: docs/). Ends with the line 'N passed, N failed'.
"""
import csv
import sqlite3
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REALM_DIR = os.path.join(ROOT, "Fixtures", "realm")
PORTER = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "porter"
DOCS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(ROOT, "docs")


def porter(*args):
    return subprocess.run([PORTER, *args], check=True, capture_output=True, text=True).stdout


def export_csv(path, cls):
    """porter export's CSV of one class: its bytes and its rows."""
    data = subprocess.run([PORTER, "export", path, "--format", "csv", "--class", cls, "--out", "-", "--quiet"],
                          check=True, capture_output=True).stdout
    return data, list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


class Studio:
    """`porter studio FILE` as a child process, stopped at the end."""

    def __init__(self, path, *flags):
        self.process = subprocess.Popen([PORTER, "studio", path, *flags], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+)", line)
        if not match:
            self.stop()
            raise AssertionError(f"porter studio printed no URL: {line!r} {self.process.stderr.read()!r}")
        self.url = match.group(1)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def browser(download_dir):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1440,900", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    # A second download from the page (the query result after the class) is not held back as
    # "multiple automatic downloads".
    options.add_experimental_option("prefs", {"download.default_directory": download_dir,
                                              "download.prompt_for_download": False,
                                              "profile.default_content_setting_values.automatic_downloads": 1})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
    return driver


def wait(driver, condition, timeout=15):
    """Waits for `condition`; an element replaced while it was read (the page re-rendered) means not yet."""
    def settled(d):
        try:
            return condition(d)
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    return WebDriverWait(driver, timeout).until(settled)


def cells(driver, prop):
    return [c.text for c in driver.find_elements(By.CSS_SELECTOR, f"#objects tbody td[data-prop='{prop}']")]


def open_class(driver, name):
    driver.find_element(By.CSS_SELECTOR, f".class-item[data-class='{name}']").click()
    wait(driver, lambda d: d.find_element(By.ID, "class-title").text == name
         and d.find_elements(By.CSS_SELECTOR, "#objects tbody tr"))


def check_values(driver, rows, props):
    """The first page's cells of `props` equal the export's CSV cells, row by row."""
    for prop in props:
        shown = cells(driver, prop)
        expected = [row[prop] for row in rows[:len(shown)]]
        assert shown == expected, f"{prop}: page {shown[:3]} != export {expected[:3]}"


RESULTS = {"passed": 0, "failed": 0}


def test(name):
    def run(body):
        try:
            body()
            RESULTS["passed"] += 1
            print(f"ok   {name}")
        except Exception:
            RESULTS["failed"] += 1
            print(f"FAIL {name}")
            traceback.print_exc()
    return run


def main():
    os.makedirs(DOCS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="studio-ui-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    database = os.path.join(work, "every-type.porter")
    porter("import", database, os.path.join(REALM_DIR, "every-type.realm"), "--create", "--quiet")
    driver = browser(downloads)
    try:
        studio = Studio(database)
        try:
            @test("classes view lists every class with its count")
            def _():
                driver.get(studio.url)
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".class-item"))
                names = [e.get_attribute("data-class") for e in driver.find_elements(By.CSS_SELECTOR, ".class-item")]
                assert sorted(names) == ["Emb", "Every", "Inner", "NoPk", "Target"], names
                info = driver.find_element(By.ID, "file-info").text
                assert "Porter database" in info and "read-only" in info, info

            text, rows = export_csv(database, "Every")

            @test("a class's cells show what porter export writes")
            def _():
                open_class(driver, "Every")
                check_values(driver, rows, ["_id", "int", "string", "bool", "decimal128", "objectId", "uuid", "date"])

            @test("a link opens its target; Back returns")
            def _():
                link = driver.find_element(By.CSS_SELECTOR, "#objects tbody td[data-prop='target'] a.link")
                target = link.text
                link.click()
                wait(driver, lambda d: d.find_element(By.ID, "object-title").is_displayed()
                     and d.find_element(By.ID, "object-title").text == target)
                assert driver.find_elements(By.CSS_SELECTOR, "#linking-objects li a.link"), "no linking objects"
                driver.find_element(By.ID, "object-back").click()
                wait(driver, lambda d: d.find_element(By.ID, "class-view").is_displayed())
                assert driver.find_element(By.ID, "class-title").text == "Every"

            @test("a query filters and counts")
            def _():
                expected = sum(1 for row in rows if int(row["int"]) > 0)
                box = driver.find_element(By.ID, "query")
                box.clear()
                box.send_keys("int > 0")
                driver.find_element(By.ID, "run-query").click()
                wait(driver, lambda d: d.find_element(By.ID, "count").text.endswith("matching"))
                count = int(driver.find_element(By.ID, "count").text.split()[0].replace(",", ""))
                assert count == expected, (count, expected)
                assert all(int(v) > 0 for v in cells(driver, "int"))
                box = driver.find_element(By.ID, "query")
                box.clear()
                box.send_keys("int >> 0")
                driver.find_element(By.ID, "run-query").click()
                wait(driver, lambda d: d.find_element(By.ID, "message").is_displayed())
                assert "position" in driver.find_element(By.ID, "message").text
                driver.find_element(By.ID, "clear-query").click()
                wait(driver, lambda d: d.find_element(By.ID, "count").text.endswith("objects"))

            @test("sorting by a column orders the rows")
            def _():
                driver.find_element(By.CSS_SELECTOR, "#objects th[data-prop='int']").click()
                wait(driver, lambda d: "▲" in d.find_element(By.CSS_SELECTOR, "#objects th[data-prop='int']").text)
                shown = [int(v) for v in cells(driver, "int")]
                assert shown == sorted(int(r["int"]) for r in rows)[:len(shown)], shown
                driver.find_element(By.CSS_SELECTOR, "#objects th[data-prop='int']").click()
                wait(driver, lambda d: "▼" in d.find_element(By.CSS_SELECTOR, "#objects th[data-prop='int']").text)
                shown = [int(v) for v in cells(driver, "int")]
                assert shown == sorted((int(r["int"]) for r in rows), reverse=True)[:len(shown)], shown

            @test("Export downloads the class as porter export's CSV")
            def _():
                driver.find_element(By.ID, "export").click()
                path = os.path.join(downloads, "Every.csv")
                deadline = time.time() + 20
                while not os.path.exists(path) and time.time() < deadline:
                    time.sleep(0.2)
                with open(path, "rb") as f:
                    assert f.read() == text, "the download differs from porter export"

            @test("Export with a query downloads the query result as porter export --query writes it")
            def _():
                expected = subprocess.run([PORTER, "export", database, "--format", "csv", "--class", "Every",
                                           "--query", "int > 0", "--out", "-", "--quiet"],
                                          check=True, capture_output=True).stdout
                box = driver.find_element(By.ID, "query")
                box.clear()
                box.send_keys("int > 0")
                driver.find_element(By.ID, "run-query").click()
                wait(driver, lambda d: d.find_element(By.ID, "export").text == "Export query result")
                assert expected != text
                driver.find_element(By.ID, "export").click()

                def downloaded():
                    # Every.csv again, or 'Every (1).csv': whichever file holds the query result.
                    for name in os.listdir(downloads):
                        if name.endswith(".csv"):
                            with open(os.path.join(downloads, name), "rb") as f:
                                if f.read() == expected:
                                    return True
                    return False
                deadline = time.time() + 20
                while not downloaded() and time.time() < deadline:
                    time.sleep(0.2)
                assert downloaded(), f"no download holds porter export --query's CSV: {os.listdir(downloads)}"
                driver.find_element(By.ID, "clear-query").click()
                wait(driver, lambda d: d.find_element(By.ID, "export").text == "Export class")

            @test("Export as SQLite downloads porter export --format sqlite's file; realm refuses a query")
            def _():
                select = driver.find_element(By.ID, "export-format")
                select.find_element(By.CSS_SELECTOR, "option[value='sqlite']").click()
                driver.find_element(By.ID, "export").click()
                path = os.path.join(downloads, "Every.sqlite")
                deadline = time.time() + 30
                while not os.path.exists(path) and time.time() < deadline:
                    time.sleep(0.2)
                expected = os.path.join(work, "expected.sqlite")
                porter("export", database, "--format", "sqlite", "--class", "Every", "--out", expected, "--quiet")
                with sqlite3.connect(path) as got, sqlite3.connect(expected) as want:
                    count = got.execute("SELECT count(*) FROM Every").fetchone()[0]
                    assert count == len(rows), (count, len(rows))
                    assert got.execute("SELECT * FROM Every ORDER BY rowid").fetchall() == \
                        want.execute("SELECT * FROM Every ORDER BY rowid").fetchall()
                select.find_element(By.CSS_SELECTOR, "option[value='realm']").click()
                box = driver.find_element(By.ID, "query")
                box.clear()
                box.send_keys("int > 0")
                driver.find_element(By.ID, "run-query").click()
                wait(driver, lambda d: "disabled" in d.find_element(By.ID, "export").get_attribute("class"))
                assert driver.find_element(By.ID, "export").get_attribute("href") is None
                driver.find_element(By.ID, "clear-query").click()
                wait(driver, lambda d: d.find_element(By.ID, "export").get_attribute("href") is not None)
                select.find_element(By.CSS_SELECTOR, "option[value='csv']").click()

            @test("the schema diagram draws classes and relationships")
            def _():
                driver.find_element(By.ID, "show-schema").click()
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#schema svg g.class-box"))
                boxes = driver.find_elements(By.CSS_SELECTOR, "#schema svg g.class-box")
                assert len(boxes) == 5, len(boxes)
                assert driver.find_elements(By.CSS_SELECTOR, "#schema svg path.edge.link")
                assert driver.find_elements(By.CSS_SELECTOR, "#schema svg path.edge.embedded")
        finally:
            studio.stop()

        docs_db = os.path.join(work, "realm-docs.porter")
        porter("create", docs_db, "--schema", os.path.join(ROOT, "Fixtures", "schemas", "realm-docs.json"))
        porter("import", docs_db, os.path.join(ROOT, "Fixtures", "data", "realm-docs-fixture.json"), "--quiet")
        studio = Studio(docs_db)
        try:
            @test("screenshots of the Realm documentation's models")
            def _():
                driver.get(studio.url)
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#class-table a.link"))
                driver.save_screenshot(os.path.join(DOCS, "studio-classes.png"))
                open_class(driver, "Dog")
                _, dogs = export_csv(docs_db, "Dog")
                check_values(driver, dogs, ["_id", "name", "dateOfBirth"])
                driver.find_element(By.CSS_SELECTOR, "#objects tbody td[data-prop='favoriteToys'] button.expand").click()
                driver.save_screenshot(os.path.join(DOCS, "studio-objects.png"))
                driver.find_element(By.ID, "show-schema").click()
                wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#schema svg g.class-box")) == 8)
                assert driver.find_elements(By.CSS_SELECTOR, "#schema svg path.edge.backlink")
                # The whole diagram: a window as tall as the page.
                height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.set_window_size(1440, min(max(900, height + 100), 2400))
                driver.save_screenshot(os.path.join(DOCS, "studio-schema.png"))
                driver.set_window_size(1440, 900)
        finally:
            studio.stop()

        realm_file = os.path.join(REALM_DIR, "inner-nodes.realm")
        studio = Studio(realm_file)
        try:
            @test("a real Realm file: cells match porter export")
            def _():
                driver.get(studio.url)
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".class-item"))
                assert "Realm file, format 24" in driver.find_element(By.ID, "file-info").text
                _, realm_rows = export_csv(realm_file, "Many")
                open_class(driver, "Many")
                check_values(driver, realm_rows, ["id", "label"])
                driver.find_element(By.ID, "next").click()
                wait(driver, lambda d: d.find_element(By.ID, "range").text.startswith("51–"))
                assert cells(driver, "id")[0] == realm_rows[50]["id"]
        finally:
            studio.stop()

        writable = os.path.join(work, "write.porter")
        shutil.copy(database, writable)
        studio = Studio(writable, "--write")
        try:
            @test("--write: Begin, edit a value, Commit")
            def _():
                driver.get(studio.url)
                wait(driver, lambda d: d.find_element(By.ID, "write-controls").is_displayed()
                     and d.find_elements(By.CSS_SELECTOR, ".class-item"))
                open_class(driver, "Every")
                driver.find_element(By.CSS_SELECTOR, "#objects tbody tr a.object-key").click()
                wait(driver, lambda d: d.find_element(By.ID, "object-view").is_displayed())
                driver.find_element(By.ID, "begin").click()
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "button.edit[data-prop='string']"))
                driver.find_element(By.CSS_SELECTOR, "button.edit[data-prop='string']").click()
                field = driver.find_element(By.CSS_SELECTOR, "input.edit-input")
                field.clear()
                field.send_keys("edited in the studio")
                driver.find_element(By.CSS_SELECTOR, "button.save-edit").click()
                wait(driver, lambda d: "edited in the studio" in
                     d.find_element(By.CSS_SELECTOR, "#object-values td[data-prop='string']").text)
                # A broken value is refused with the engine's message.
                driver.find_element(By.CSS_SELECTOR, "button.edit[data-prop='int']").click()
                field = driver.find_element(By.CSS_SELECTOR, "input.edit-input")
                field.clear()
                field.send_keys("twelve")
                driver.find_element(By.CSS_SELECTOR, "button.save-edit").click()
                wait(driver, lambda d: "is not an integer" in d.find_element(By.ID, "message").text)
                driver.find_element(By.ID, "commit").click()
                wait(driver, lambda d: d.find_element(By.ID, "message").text == "Committed")
                _, after = export_csv(writable, "Every")
                assert after[0]["string"] == "edited in the studio", after[0]["string"]
                assert after[0]["int"] == rows[0]["int"]
        finally:
            studio.stop()

        writable_realm = os.path.join(work, "write.realm")
        backup = os.path.join(work, "write.before.realm")
        shutil.copy(os.path.join(REALM_DIR, "every-type.realm"), writable_realm)
        with open(writable_realm, "rb") as f:
            original = f.read()
        studio = Studio(writable_realm, "--write", "--backup", backup)
        try:
            @test("--write on a Realm file: edit the working copy, Commit, Save writes the file")
            def _():
                driver.get(studio.url)
                wait(driver, lambda d: d.find_element(By.ID, "save-controls").is_displayed()
                     and d.find_elements(By.CSS_SELECTOR, ".class-item"))
                assert "working copy" in driver.find_element(By.ID, "file-info").text
                assert not driver.find_element(By.ID, "save").is_enabled()
                open_class(driver, "Every")
                driver.find_element(By.CSS_SELECTOR, "#objects tbody tr a.object-key").click()
                wait(driver, lambda d: d.find_element(By.ID, "object-view").is_displayed())
                driver.find_element(By.ID, "begin").click()
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "button.edit[data-prop='string']"))
                driver.find_element(By.CSS_SELECTOR, "button.edit[data-prop='string']").click()
                field = driver.find_element(By.CSS_SELECTOR, "input.edit-input")
                field.clear()
                field.send_keys("saved by the studio")
                driver.find_element(By.CSS_SELECTOR, "button.save-edit").click()
                wait(driver, lambda d: "saved by the studio" in
                     d.find_element(By.CSS_SELECTOR, "#object-values td[data-prop='string']").text)
                driver.find_element(By.ID, "commit").click()
                wait(driver, lambda d: d.find_element(By.ID, "save-state").text.startswith("unsaved"))
                with open(writable_realm, "rb") as f:
                    assert f.read() == original, "the Realm file changed before Save"
                driver.find_element(By.ID, "save").click()
                wait(driver, lambda d: d.find_element(By.ID, "message").text.startswith("Saved:"))
                assert driver.find_element(By.ID, "save-state").text == "saved"
                assert driver.find_element(By.ID, "banner").is_displayed() is False
                _, after = export_csv(writable_realm, "Every")
                assert after[0]["string"] == "saved by the studio", after[0]["string"]
                with open(backup, "rb") as f:
                    assert f.read() == original, "the backup is not the file as it was"
        finally:
            studio.stop()
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
