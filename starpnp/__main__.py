"""`python -m starpnp` is the `starpnp` command."""
from starpnp.generator.cli import main

main()
