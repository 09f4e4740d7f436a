"""Benchmarks (not tests): ``python -m bench [--quick]``; see bench/run.py."""
