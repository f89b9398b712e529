"""``python -m satdomino``: the ``satdomino`` command."""

from .cli import main

raise SystemExit(main())
