"""`satdomino compare`: sweeps over puzzles x models x encodings x backends x seeds, each run
isolated with time and memory limits, rows appended to a CSV (resumable), summarised as a
PAR-2 table and cactus / scatter plots."""
