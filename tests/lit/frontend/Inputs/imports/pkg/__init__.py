# Re-exports, as FlagGems' utils/__init__.py does.
from pkg.shim import math_lib  # noqa: F401
