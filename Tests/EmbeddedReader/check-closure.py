#!/usr/bin/env python3
"""The embeddable reader's dependency closure, read from SwiftPM's own package descriptions.

Walks every target reachable from this package's executable (the `PorterRealmFile` product and
everything it pulls in, through every package, whatever the platform conditions) using
`swift package show-dependencies --format json` (where each package is) and `swift package
dump-package` (each package's targets, products and settings). Fails, naming the path from the
app to it, when the closure holds a system library: a `systemLibrary` target (a pkg-config C
library from the system, such as libcrypto), or a `linkedLibrary` linker setting.

usage: check-closure.py SCRATCH_PATH [--package-path DIR] [--target NAME] [--expect-system]
  --package-path  the package to read (default: this folder's, Tests/EmbeddedReader)
  --target        the target whose closure is read (default: every executable of the package)
  --expect-system the closure must hold a system library (the check's own check, run on a
                  target known to link some: it fails when the walk finds none)
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def swift(*args, cwd=HERE):
    return subprocess.run(["swift", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def option(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def main():
    scratch = sys.argv[1]
    package = os.path.abspath(option("--package-path") or HERE)
    only = option("--target")
    expect_system = "--expect-system" in sys.argv
    allowed = set()
    tree = json.loads(swift("package", "--scratch-path", scratch, "show-dependencies", "--format", "json", cwd=package))
    paths = {}

    def collect(node):
        paths[node["identity"]] = node["path"]
        for child in node.get("dependencies", []):
            collect(child)

    collect(tree)
    manifests = {}
    with tempfile.TemporaryDirectory() as dump_scratch:
        for identity, path in paths.items():
            manifests[identity] = json.loads(
                swift("package", "--package-path", path, "--scratch-path", dump_scratch, "dump-package"))

    def package_of(identity, name):
        """The identity a manifest's `package:` name or identity refers to."""
        for dep in manifests[identity].get("dependencies", []):
            kind = next(iter(dep.values()))[0]
            dep_identity = kind.get("identity")
            if name.lower() in (dep_identity or "", (kind.get("nameForTargetDependencyResolutionOnly") or "").lower()):
                return dep_identity
        raise SystemExit(f"check-closure: {identity} names package {name}, which it does not depend on")

    def targets(identity):
        return {t["name"]: t for t in manifests[identity]["targets"]}

    def product_targets(identity, product):
        for p in manifests[identity]["products"]:
            if p["name"] == product:
                return p["targets"]
        raise SystemExit(f"check-closure: package {identity} has no product {product}")

    problems, seen, unresolved = [], set(), set()
    walked = 0

    def visit(identity, target, trail):
        nonlocal walked
        if (identity, target) in seen:
            return
        seen.add((identity, target))
        walked += 1
        t = targets(identity)[target]
        here = trail + [f"{identity}:{target}"]
        if t["type"] == "system" and target not in allowed:
            problems.append(f"system library {target} (pkg-config {t.get('pkgConfig')}): " + " -> ".join(here))
        for setting in t.get("settings", []):
            kind = setting.get("kind", {})
            if "linkedLibrary" in kind and target not in allowed:
                problems.append(f"linked library {kind['linkedLibrary']['_0']}: " + " -> ".join(here))
        for dep in t.get("dependencies", []):
            if "byName" in dep:
                name = dep["byName"][0]
                if name in targets(identity):
                    visit(identity, name, here)
                else:  # a product of a dependency named like its package
                    other = package_of(identity, name)
                    if other not in manifests:
                        unresolved.add(other)
                        continue
                    for pt in product_targets(other, name):
                        visit(other, pt, here)
            elif "target" in dep:
                visit(identity, dep["target"][0], here)
            elif "product" in dep:
                name, package = dep["product"][0], dep["product"][1]
                other = package_of(identity, package)
                if other not in manifests:  # not resolved: only behind a trait the build leaves off
                    unresolved.add(other)
                    continue
                for pt in product_targets(other, name):
                    visit(other, pt, here)

    root = tree["identity"]
    for name, t in targets(root).items():
        if (only is None and t["type"] == "executable") or name == only:
            visit(root, name, [])
    if walked == 0:
        raise SystemExit(f"check-closure: no target {only or '(executable)'} in {package}")
    packages = sorted({i for i, _ in seen})
    print(f"check-closure: {walked} targets in {len(packages)} packages ({', '.join(packages)})"
          + (f"; not resolved, so not built: {', '.join(sorted(unresolved))}" if unresolved else ""))
    if expect_system:
        if not problems:
            print("check-closure: expected system libraries in this closure, found none", file=sys.stderr)
            sys.exit(1)
        print(f"check-closure: finds the {len(problems)} system libraries it must find, e.g. {problems[0]}")
        return
    if problems:
        for p in problems:
            print("check-closure: " + p, file=sys.stderr)
        sys.exit(1)
    print("check-closure: no system library")


if __name__ == "__main__":
    main()
