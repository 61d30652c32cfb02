"""Benchmarks of the book's build and pages against the alternatives: `benchmarks/run` (or `make benchmark`).

Not tests: timed runs, repeated, reported as medians with their spread in benchmarks/RESULTS.md.
"""
