"""Rule sets of the games the table hosts. Importing this package registers each one.

Each game module calls `sticktable.engine.register(...)` at import; add new games below.
"""

import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
