"""Analyses beyond one answer: uniqueness and counting (backbones and proofs to come)."""

from .unique import blocking_clause

__all__ = ["blocking_clause"]  # counting: satdomino.analysis.count (it imports the backends)
