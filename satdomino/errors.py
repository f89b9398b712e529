"""The one exception type users can cause, and its few specialisations."""


class SatDominoError(Exception):
    """A problem the user can fix: bad input, unknown name, impossible request.

    The CLI prints ``str(error)`` on one line and exits with status 2.
    """


class PuzzleFormatError(SatDominoError):
    """Input text that is not a valid puzzle."""


class UnknownNameError(SatDominoError):
    """An encoding, backend, model or puzzle kind that does not exist."""


class BackendError(SatDominoError):
    """A solver that cannot be used as asked (missing binary, no native cardinality, ...)."""


class OutOfTimeError(SatDominoError):
    """A time limit reached before an answer that a command needs (no answer: exit 3)."""


class VerificationError(Exception):
    """A decoded layout broke the puzzle's rules: a bug in a model or encoding, never user error."""


class UsageError(SatDominoError):
    """Options or arguments that do not fit together."""
