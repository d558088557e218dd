"""The ``contack`` command's entry point: ``contack --version`` answers here, before the command
line (Typer, Rich) is imported, so it costs little more than starting Python; everything else
goes to :func:`contack_core.cli.main`."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from contack_core.version import __version__

        print(f"contack {__version__}")
        return
    from contack_core.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
