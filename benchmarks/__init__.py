"""Benchmarks that need more than the engine: ``python -m benchmarks.load``."""
