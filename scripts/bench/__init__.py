"""The benchmark: `python -m scripts.bench` (see its --help and docs/performance.md)."""
