"""Analyses beyond one answer, over any family: counting (``count``, ``approx``),
explanations (``explain``, with the named rules in ``rules``), DRAT proofs (``drat``) and the
other solution that the generators' repair loops break (``repair``)."""
