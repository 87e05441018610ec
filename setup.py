"""Lists every subpackage under the mapped top-level folders (pyproject maps the roots)."""
import hashlib
from pathlib import Path

from setuptools import Extension, setup

ROOTS = {"v8atlas": "v8atlas", "v8atlas.compiler": "compiler",
         "v8atlas.formats": "formats", "v8atlas.server": "server"}


def _packages() -> tuple[list[str], dict[str, str]]:
    """Every package, and every data folder inside one (help/data, dashboard/static…): setuptools
    wants data folders listed as packages too, else it prints a warning banner for each."""
    packages, package_dir = [], {}
    for name, folder in ROOTS.items():
        for init in sorted(Path(folder).rglob("__init__.py")):
            for d in [init.parent, *sorted(p for p in init.parent.rglob("*") if p.is_dir())]:
                if any(p == "__pycache__" or p.startswith(".") for p in d.parts) or \
                        (d != init.parent and (d / "__init__.py").exists()):
                    continue
                rel = d.relative_to(folder).parts
                pkg = ".".join((name, *rel))
                if pkg not in package_dir:
                    packages.append(pkg)
                    package_dir[pkg] = "/".join((folder, *rel))
    return packages, package_dir


# The BSL scanner's hot part (compiler/code/_bslscan.c, plain C and the CPython API). Optional:
# without a C compiler the install goes on and lexer.py scans in Python (the same answers).
# The build carries its source's sha256 (16 hex): lexer.py leaves a build of another _bslscan.c
# than the one beside it unused, with a warning (an editable install keeps the .so it built).
_SCANNER_C = Path("compiler/code/_bslscan.c")
_SCANNER_SHA = hashlib.sha256(_SCANNER_C.read_bytes()).hexdigest()[:16] if _SCANNER_C.is_file() else "unknown"
SCANNER = Extension("v8atlas.compiler.code._bslscan", [str(_SCANNER_C)],
                    define_macros=[("BSLSCAN_SOURCE_SHA", f'"{_SCANNER_SHA}"')],
                    extra_compile_args=["-O2"], optional=True)

_pkgs, _dirs = _packages()
# the server's image copies no compiler/ sources: nothing to build there
setup(packages=_pkgs, package_dir=_dirs, ext_modules=[SCANNER] if Path(SCANNER.sources[0]).is_file() else [])
