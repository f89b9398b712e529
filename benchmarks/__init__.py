"""Benchmark scripts (not tests, not installed): run from the repository root as
``python -m benchmarks.NAME`` after ``pip install -e '.[bench]'``; docs/benchmarks.md shows
what each one measured."""
