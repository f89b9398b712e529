from typing import Any

def dance(items: int, caps: Any, option_start: Any, option_items: Any, control: Any,
          time_limit: float, max_count: int, keep: int,
          weights: Any = ...) -> tuple[int, list[list[int]]] | None: ...
