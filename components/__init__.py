"""Package data: one folder of YAML per game (`starpnp.components.<game>`), read by the generator and the companion."""
