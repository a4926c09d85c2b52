"""starpnp: print-and-play sets and a table companion for four space board games.

The installed distribution is this one namespace. In the repository its parts keep their own top-level
folders (mapped in pyproject.toml): `starpnp.generator` is `generator/`, `starpnp.companion` is
`companion/`, and the games' data and the templates are the package-data folders `starpnp.components`
(`components/`) and `starpnp.templates` (`templates/`), always found through `importlib.resources`.
"""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("starpnp")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
