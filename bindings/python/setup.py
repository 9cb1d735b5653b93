"""Copies Porter's C library into the package when it is built (pip install, pip wheel).

The library is ``$PORTER_LIB`` when set, else ``../../.build/lib/libporter.so`` (``make lib``), else
``../../.build/lib-debug/libporter.so``. Without one, the package installs without it and finds the
library at run time through ``PORTER_LIB``.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def built_library():
    candidates = [os.environ.get("PORTER_LIB", "")]
    root = os.path.normpath(os.path.join(HERE, "..", ".."))
    candidates += [os.path.join(root, ".build", "lib", "libporter.so"), os.path.join(root, ".build", "lib-debug", "libporter.so")]
    return next((c for c in candidates if c and os.path.isfile(c)), None)


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = built_library()
        if library is None:
            print("porter-realm: no libporter.so found (run 'make lib' or set PORTER_LIB); set PORTER_LIB at run time")
            return
        target = os.path.join(self.build_lib, "porter_realm", "libporter.so")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(library, target)
        print(f"porter-realm: bundled {library}")


setup(cmdclass={"build_py": BuildWithLibrary})
