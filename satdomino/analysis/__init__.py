"""Analyses beyond one answer: uniqueness (and, in later work, counting, backbones, proofs)."""

from .unique import blocking_clause

__all__ = ["blocking_clause"]
