"""The build step that ships the notebooks and data in the wheel (all other settings: pyproject.toml).

A wheel carries only the package, so ``build_py`` copies the repository's top-level ``notebooks/``,
``data/``, ``docs/rules/`` (the rules pages the apps quote) and ``voila.json`` into ``tabletop_lab/bundle/`` of the build (an sdist carries them
through ``MANIFEST.in``). A checkout keeps using its top-level folders (``tabletop_lab.resources``);
editable installs copy nothing.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("notebooks", "data", "docs/rules", "voila.json")
SKIPPED = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc")


class BuildPyWithBundle(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        bundle = Path(self.build_lib) / "tabletop_lab" / "bundle"
        shutil.rmtree(bundle, ignore_errors=True)
        bundle.mkdir(parents=True)
        for name in SHIPPED:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, bundle / name, ignore=SKIPPED)
            else:
                shutil.copy2(source, bundle / name)


setup(cmdclass={"build_py": BuildPyWithBundle})
