"""v8atlas."""
