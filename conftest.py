"""Root pytest configuration: doctests of src/ are collected, except entry points."""

import importlib.util

collect_ignore = ["src/damepique/__main__.py"]

# The interop layers' doctests need their extras; without them the modules are
# not collected (their tests in tests/interop skip, saying which extra to install).
if importlib.util.find_spec("pettingzoo") is None:
    collect_ignore.append("src/damepique/pettingzoo.py")
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/damepique/openspiel.py")
