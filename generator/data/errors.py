"""The two ways bad data is reported: one problem (DataError) or every problem found (DataErrors), each line
already worded as `file:line: field: what is wrong`."""
from __future__ import annotations


class DataError(Exception):
    """One problem in the data, already formatted as `file:line: field.path: what is wrong`."""


class DataErrors(Exception):
    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors
