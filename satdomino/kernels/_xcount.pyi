from typing import Any

def sweep(n: int, group_caps: Any, option_start: Any, option_cells: Any, option_group: Any,
          control: Any, time_limit: float) -> int | None: ...
