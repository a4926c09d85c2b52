"""starpnp: print-and-play sets and a table companion for four space board games.

The installed distribution is this one namespace. In the repository its parts keep their own top-level
folders (mapped in pyproject.toml): `starpnp.generator` is `generator/`, `starpnp.companion` is
`companion/`, and the games' data and the templates are the package-data folders `starpnp.components`
(`components/`) and `starpnp.templates` (`templates/`), always found through `importlib.resources`.
"""


def __getattr__(name: str) -> str:
    """`starpnp.__version__`, read from the installed metadata only when asked (importlib.metadata costs
    every command a few hundredths of a second at start-up)."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("starpnp")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"
