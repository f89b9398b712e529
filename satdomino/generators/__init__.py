"""Generated puzzles, above the pipeline: the driver of every family's ``Generator``
(``make``: check, plant or build unique, grade, the command that remakes a puzzle) and the
``cnf_samples/`` folder (``samples``)."""

from .make import Made, check, command, made, origin, planted

__all__ = ["Made", "check", "command", "made", "origin", "planted"]
