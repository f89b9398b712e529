"""Family-neutral counting kernels, below the families: exact covers counted by propagation
and independent parts (``cover_count``), packings swept in C (``_xcount``), and the placements
no solution uses (``cover_count.never_true`` by SAT, ``cover_count.lp_never_used`` by linear
programming)."""
