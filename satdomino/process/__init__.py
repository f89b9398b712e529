"""The process layer, below the backends: work another thread can stop (``run``), forked
children that a time limit kills (``child``, ``run``), and the fork server (``forkserver``)."""
