"""Root pytest configuration: doctests of src/ are collected, except entry points."""

collect_ignore = ["src/damepique/__main__.py"]
