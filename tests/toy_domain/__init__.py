"""A toy domain, written as a third party would: recipe books (*.recipes).

It brings its own source kind and v8atlas.toml table, a document domain ("recipes"), a
search field ("ingredients") and a parameter (``recipes``) on another domain's tool
(search_metadata). The one line outside this folder that plugs it in is a
``registry.register(...)`` (tests/test_toy_domain.py).
"""
