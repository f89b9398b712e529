from typing import Any

def sweep(n: int, group_caps: Any, option_start: Any, option_cells: Any, option_group: Any,
          control: Any, time_limit: float) -> int: ...

def dance(items: int, caps: Any, option_start: Any, option_items: Any, control: Any,
          time_limit: float, max_count: int, keep: int) -> tuple[int, list[list[int]]] | None: ...
