"""v8atlas: exact, version-correct knowledge of 1C:Enterprise configurations for coding agents.

Import names: v8atlas.formats (bundle contract), v8atlas.compiler, v8atlas.server.
"""
__version__ = "0.1.0"
