"""Build the Cython collision core from the same source as its pure-Python twin.

server/sim/core.py is plain Python that Cython compiles in its pure-Python mode
(types declared in server/sim/core.pxd). Installed, the compiled module shadows
the .py; server.sim.engines loads the .py source directly as the twin.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

# Determinism: no fast-math and no fused multiply-add, so that the compiled core
# gives the same bits as the Python twin (Python floats are IEEE doubles too).
STRICT_FP = ["-O2", "-fno-fast-math", "-ffp-contract=off"]

extensions = [
    Extension("server.sim.core", ["server/sim/core.py"], extra_compile_args=STRICT_FP),
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
