"""The `starpnp` command (and `python -m starpnp`): the CLI, imported with the cyclic garbage collector paused.

Importing click, pydantic and ReportLab allocates tens of thousands of objects that live as long as the
process; the collector would rescan them over and over while they load and at every collection after.
Pausing it during the import, then freezing what was loaded, saves about a twentieth of a small build
(BENCHMARKS.md) and changes nothing else.

Pydantic's plugins (validation tracing, for servers) are off unless PYDANTIC_DISABLE_PLUGINS is set (set it
empty to load them): looking for them reads every installed package's entry points, a twentieth of a small
build.
"""
import gc
import os


def main() -> None:
    was_enabled = gc.isenabled()
    gc.disable()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        from .generator.cli import main as cli
    finally:
        gc.freeze()  # what the import made lives as long as the process: never scan it again
        if was_enabled:
            gc.enable()
    cli()
