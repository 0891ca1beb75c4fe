"""Where the notebooks, the data, the rules pages (``docs/rules/``) and ``voila.json`` live: a checkout's top-level folders, or the
copies a wheel ships in ``tabletop_lab/bundle/`` (``setup.py`` copies them there when it builds).

A checkout is recognised by its ``pyproject.toml`` beside the package, so that an installed
package never mistakes some other ``data/`` folder of ``site-packages`` for its own.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BUNDLE", "CHECKOUT", "shipped_root"]

PACKAGE = Path(__file__).resolve().parent
#: The repository root, when the package is used from a checkout (editable install).
CHECKOUT = PACKAGE.parent
#: The copies a built wheel carries.
BUNDLE = PACKAGE / "bundle"


def shipped_root() -> Path:
    """The folder holding ``notebooks/``, ``data/`` and ``voila.json``: the checkout, else the bundle."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "notebooks").is_dir():
        return CHECKOUT
    return BUNDLE
