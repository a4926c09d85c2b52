"""The studio's build buttons: the same builds as `starpnp build` (print PDF, PNG faces, Tabletop Simulator),
one at a time in a thread, with what each is doing and the file it made."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..build import BuildFailed, BuildOptions, build_game
from ..data.yamlio import DataError, DataErrors
from ..sheets.imposition import Settings

KINDS = {"pdf": ("pdf",), "png": ("png",), "tts": ("tts",)}  # button -> the formats it builds
SHOWN = {"pdf": ".pdf", "png": ".csv", "tts": ".json"}  # the file linked: the PDF, faces.csv, the TTS object


@dataclass
class Job:
    id: int
    kind: str
    state: str = "queued"  # queued | running | done | failed
    step: str = ""
    done: int = 0
    total: int = 0
    result: str | None = None  # a path under the output folder, to link
    error: str | None = None
    warnings: int = 0

    def summary(self) -> dict:
        return {k: getattr(self, k) for k in ("id", "kind", "state", "step", "done", "total", "result", "error",
                                              "warnings")}


@dataclass
class Jobs:
    out: Path
    jobs: list[Job] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, kind: str, folder: Path, options: frozenset[str], write_ins: bool, ink: str) -> Job:
        with self.lock:
            job = Job(len(self.jobs) + 1, kind)
            self.jobs.append(job)
        build = BuildOptions(settings=Settings(ink=ink), formats=KINDS[kind], out=self.out, options=options,
                             write_ins=write_ins, large=True)
        threading.Thread(target=self._run, args=(job, folder, build), daemon=True).start()
        return job

    def _run(self, job: Job, folder: Path, options: BuildOptions) -> None:
        job.state = "running"

        def step(text: str, done: int | None = None, total: int | None = None) -> None:
            job.step, job.done, job.total = text, done or 0, total or 0

        try:
            result = build_game(folder, options, step)
        except DataErrors as exc:
            job.state, job.error = "failed", exc.errors[0]
            return
        except (BuildFailed, DataError, OSError) as exc:
            job.state, job.error = "failed", str(exc).splitlines()[0]
            return
        made = [path for path in result.files if path.name != "manifest.json"]
        shown = next((path for path in made if path.suffix == SHOWN[job.kind]), result.folder / "manifest.json")
        job.result = str(shown.resolve().relative_to(self.out))
        job.warnings = len(result.warnings)
        job.step, job.state = f"{len(made)} file{'s' if len(made) != 1 else ''} written", "done"

    def summaries(self) -> list[dict]:
        return [job.summary() for job in reversed(self.jobs[-10:])]
