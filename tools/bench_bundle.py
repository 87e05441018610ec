#!/usr/bin/env python3
"""Bundle benchmark (same as `v8atlas bench bundle`): python tools/bench_bundle.py [--json]."""
from v8atlas.formats.bench import bench_bundle_cmd

if __name__ == "__main__":
    bench_bundle_cmd()
