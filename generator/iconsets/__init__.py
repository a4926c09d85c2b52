"""Extra icon modules, one per theme or game; every module here is imported by generator.icons."""
