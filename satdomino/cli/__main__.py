"""``python -m satdomino.cli``: the ``satdomino`` command."""

from . import main

raise SystemExit(main())
