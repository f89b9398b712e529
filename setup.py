"""The one compiled part: the ``sls`` backend's local search (satdomino/backends/_sls.c).

Optional: without a C compiler the install goes on, and ``sls`` says it is not built (``auto``
then chooses among the other solvers). Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("satdomino.backends._sls", ["satdomino/backends/_sls.c"],
                             extra_compile_args=["-O2", "-std=c99"], optional=True)])
