"""Build the Cython collision core from the same source as its pure-Python twin.

server/games/core/collision.py is plain Python that Cython compiles in its pure-Python mode
(types declared in server/games/core/collision.pxd). Installed, the compiled module shadows
the .py; server.games.novuss.sim.engines loads the .py source directly as the twin.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

# Determinism: no fast-math and no fused multiply-add, so that the compiled core
# gives the same bits as the Python twin (Python floats are IEEE doubles too).
STRICT_FP = ["-O2", "-fno-fast-math", "-ffp-contract=off"]

extensions = [
    Extension(
        "server.games.core.collision",
        ["server/games/core/collision.py"],
        extra_compile_args=STRICT_FP,
    ),
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
