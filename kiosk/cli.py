"""The ``stud-kiosk`` command line."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: sub-command name -> module in kiosk.commands
COMMANDS: dict[str, str] = {
    "serve": "serve",
    "rank": "rank",
    "odds": "odds",
    "replay": "replay",
    "recognize": "recognize",
    "simulate-device": "simulate_device",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stud-kiosk", description="Table-side dealer assistant for stud poker."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(f"kiosk.commands.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"kiosk.commands.{module_name}":
                raise
            continue
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    result: int = handler(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
