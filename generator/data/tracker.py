"""`tracker:` in game.yaml: what a designer's game keeps count of on the phones, declared as data.

The companion turns the declaration into the same kind of rules our own games have (see
companion/rules/declared.py); here it is only validated, with messages naming the field.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

LIMIT = 1_000_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class TrackedCounter(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=24, description="short name used by score and ends")
    label: str = Field(min_length=1, max_length=24, description="what the phones show, e.g. Gold")
    min: int = Field(0, ge=-LIMIT, le=LIMIT)
    max: int = Field(999, ge=-LIMIT, le=LIMIT)
    start: int = Field(0, ge=-LIMIT, le=LIMIT, description="value at the start of the game")
    step: int = Field(1, ge=1, le=1000, description="how much the − and + buttons change it")
    steps: list[int] = Field([5, 10], max_length=3, description="bigger steps: holding − or + adds the first "
                             "(again while held); each is also offered as a folded ± button, beside a typed amount")

    @model_validator(mode="after")
    def _in_range(self):
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        if not self.min <= self.start <= self.max:
            raise ValueError(f"start {self.start} is outside {self.min}–{self.max}")
        if any(not 1 <= n <= 1000 for n in self.steps):
            raise ValueError(f"steps {self.steps} must each be from 1 to 1000")
        return self


class EndTrigger(_Strict):
    counter: str = Field(description="a counter id: a player's (any player reaching it) or a shared one")
    reaches: int = Field(ge=-LIMIT, le=LIMIT, description="the game ends as soon as the counter reaches this")


class Tracker(_Strict):
    """Per-player counters, shared counters, the score, turn order, how the game ends and the tie-break."""

    counters: list[TrackedCounter] = Field([], max_length=8, description="one of each per player")
    shared: list[TrackedCounter] = Field([], max_length=4, description="one of each for the table, e.g. Round")
    score: str | dict[str, int] | None = Field(
        None, description="the counter that scores, or weights of counters: {points: 1, gold: 2}; "
                          "default: the first player counter")
    turns: bool = Field(True, description="players take turns in seat order (an End turn button)")
    round: str | None = Field(None, description="a shared counter that End turn adds 1 to after the last seat")
    ends: list[EndTrigger] = Field([], max_length=4, description="the game ends when any of these happens")
    tie_break: str | None = Field(None, description="a player counter: of players level on score, more wins")

    @model_validator(mode="after")
    def _known_names(self):
        mine = {c.id for c in self.counters}
        shared = {c.id for c in self.shared}
        if not mine:
            raise ValueError("counters: declare at least one per-player counter (the score)")
        if mine & shared:
            raise ValueError(f"{sorted(mine & shared)[0]!r} is both a player counter and a shared one")
        weights = self.score if isinstance(self.score, dict) else {self.score: 1} if self.score else {}
        for name in weights:
            if name not in mine:
                raise ValueError(f"score: {name!r} is not a player counter ({', '.join(sorted(mine))})")
        if self.round is not None and self.round not in shared:
            raise ValueError(f"round: {self.round!r} is not a shared counter ({', '.join(sorted(shared)) or 'none'})")
        for end in self.ends:
            if end.counter not in mine | shared:
                raise ValueError(f"ends: {end.counter!r} is not a counter ({', '.join(sorted(mine | shared))})")
        if self.tie_break is not None and self.tie_break not in mine:
            raise ValueError(f"tie_break: {self.tie_break!r} is not a player counter")
        return self

    @property
    def weights(self) -> dict[str, int]:
        if isinstance(self.score, dict):
            return dict(self.score)
        return {self.score or self.counters[0].id: 1}
