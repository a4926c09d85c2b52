"""`python -m starpnp` is the `starpnp` command."""
from starpnp.command import main

main()
