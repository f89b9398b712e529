from typing import Any

def count(width: int, height: int, free: Any, tops: Any, per_column: Any, max_states: int,
          layer_bytes: int, control: Any, threads: int, budget: int, seed: int, runs: int,
          seconds: float) -> tuple[list[float], int] | None: ...
