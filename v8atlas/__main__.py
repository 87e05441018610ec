from v8atlas.cli import main

main()
