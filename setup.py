"""The compiled parts: the ``sls`` backend's local search (satdomino/backends/_sls.c), the
``dlx`` backend's exact cover search (satdomino/backends/_dlx.c), the packing counter
(satdomino/kernels/_xcount.c), Domino Fit's counter and estimator
(satdomino/puzzles/_fitcount.c, built twice) and SIGTERM into a python-sat search
(satdomino/process/_sigterm.c).

Optional: without a C compiler the install goes on, ``sls`` and ``dlx`` say they are not
built (``auto`` then chooses among the other solvers) and counting uses its other methods.
Everything else is in pyproject.toml."""

from setuptools import Extension, setup

SHARED = ["satdomino/_cbuffers.h"]  # buffer arguments and the clock, for both
setup(ext_modules=[
    Extension("satdomino.backends._sls", ["satdomino/backends/_sls.c"], depends=SHARED,
              extra_compile_args=["-O2", "-std=c99"], optional=True),
    # gnu99: the counter's 128-bit integers
    Extension("satdomino.kernels._xcount", ["satdomino/kernels/_xcount.c"], depends=SHARED,
              extra_compile_args=["-O2", "-std=gnu99"], optional=True),
    Extension("satdomino.puzzles._fitcount", ["satdomino/puzzles/_fitcount.c"],
              depends=SHARED, extra_compile_args=["-O2", "-std=gnu99"], optional=True),
    # the same sweep, estimating (weights for numbers of ways, the side from above thinned)
    Extension("satdomino.puzzles._fitestimate", ["satdomino/puzzles/_fitcount.c"],
              define_macros=[("FIT_ESTIMATE", "1")], depends=SHARED,
              extra_compile_args=["-O2", "-std=gnu99"], optional=True),
    Extension("satdomino.backends._dlx", ["satdomino/backends/_dlx.c"], depends=SHARED,
              extra_compile_args=["-O2", "-std=c99"], optional=True),
    Extension("satdomino.process._sigterm", ["satdomino/process/_sigterm.c"],
              extra_compile_args=["-O2"], optional=True),
])
