"""v8atlas compiler: reads 1C sources and writes bundles."""
__version__ = "0.1.0"
