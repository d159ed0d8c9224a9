"""Which folders of the repository become which packages: found, never listed.

The repository keeps one folder per layer at the top level (`engine/`,
`controller/`, ...); installed, each lives under the one `damka` namespace
(`damka.engine`, ...) so no generic name is claimed, and `damka/` itself is
the command line. Every top-level folder with an `__init__.py` is a layer,
except the ones that are not part of the program (`NOT_INSTALLED`), and every
package below it comes along: a new folder or subpackage needs no edit here.
Files other than Python source inside those packages (data, fonts, ...) go
into the wheel too. Everything else about the project is in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
NOT_INSTALLED = frozenset({"tests", "benchmarks", "docs", "deploy", "build", "dist"})
NOT_DATA = (".py", ".pyc", ".pyo", "~")


def layer_folders(root: Path = ROOT) -> list[str]:
    """Top-level folders that are Python packages and part of the program."""
    return sorted(path.name for path in root.iterdir()
                  if path.is_dir() and (path / "__init__.py").is_file()
                  and path.name not in NOT_INSTALLED and not path.name.startswith((".", "_")))


def package_layout(root: Path = ROOT) -> tuple[list[str], dict[str, str]]:
    """(packages, package_dir): each layer folder as `damka.<folder>` (the
    `damka/` folder as `damka`) with all of its subpackages."""
    packages: list[str] = []
    package_dir: dict[str, str] = {}
    for folder in layer_folders(root):
        name = "damka" if folder == "damka" else f"damka.{folder}"
        package_dir[name] = folder
        packages.append(name)
        packages += [f"{name}.{sub}" for sub in find_packages(str(root / folder))]
    return packages, package_dir


def package_data(packages: list[str], package_dir: dict[str, str], root: Path = ROOT) -> dict[str, list[str]]:
    """Every non-Python file directly inside each package's folder."""
    data: dict[str, list[str]] = {}
    for package in packages:
        parts = package.split(".")
        top = max((name for name in package_dir if parts[:len(name.split("."))] == name.split(".")), key=len)
        folder = root / package_dir[top] / Path(*parts[len(top.split(".")):])
        files = sorted(path.name for path in folder.iterdir()
                       if path.is_file() and not path.name.startswith(".") and not path.name.endswith(NOT_DATA))
        if files:
            data[package] = files
    return data


if __name__ == "__main__":
    PACKAGES, PACKAGE_DIR = package_layout()
    setup(packages=PACKAGES, package_dir=PACKAGE_DIR, package_data=package_data(PACKAGES, PACKAGE_DIR))
