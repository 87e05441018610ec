from v8atlas.cli import entry

entry()
