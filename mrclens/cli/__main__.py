"""``python -m mrclens.cli …``: the ``mrclens`` command without the console script on ``PATH``."""

from mrclens.cli import main

if __name__ == "__main__":
    main(prog_name="mrclens")
