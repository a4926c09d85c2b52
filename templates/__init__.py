"""Package data: the Jinja2 templates of the companion (`starpnp.templates`)."""
