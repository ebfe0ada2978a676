"""The compiled core of the bots' exact solver (bots/_solver.c), built by `pip install -e .`.

Everything else about the package is in pyproject.toml. The extension is optional: where no C
compiler is present the build goes on without it and bots.solver runs its pure-Python reference.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bots._solver", sources=["bots/_solver.c"], optional=True, extra_compile_args=["-O2"]
        )
    ]
)
