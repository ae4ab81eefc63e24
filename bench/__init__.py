"""Benchmarks: `python -m bench` runs the `main()` of every module in this package."""
