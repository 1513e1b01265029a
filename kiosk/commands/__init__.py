"""Sub-commands of ``stud-kiosk``.

Each module defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``, and
keeps heavy imports inside ``run`` so that ``stud-kiosk --help`` stays fast.
"""
