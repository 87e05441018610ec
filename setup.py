"""Lists every subpackage under the mapped top-level folders (pyproject maps the roots)."""
from pathlib import Path

from setuptools import setup

ROOTS = {"v8atlas": "v8atlas", "v8atlas.compiler": "compiler",
         "v8atlas.formats": "formats", "v8atlas.server": "server"}


def _packages() -> tuple[list[str], dict[str, str]]:
    packages, package_dir = [], {}
    for name, folder in ROOTS.items():
        for init in sorted(Path(folder).rglob("__init__.py")):
            rel = init.parent.relative_to(folder).parts
            pkg = ".".join((name, *rel))
            packages.append(pkg)
            package_dir[pkg] = "/".join((folder, *rel))
    return packages, package_dir


_pkgs, _dirs = _packages()
setup(packages=_pkgs, package_dir=_dirs)
