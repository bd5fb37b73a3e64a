"""The ``cardgen`` command: ``python -m cardgen`` and the console script.

The stop signals are handled before the command line is imported, and ignored once the
outcome is settled (see :mod:`cardgen.interrupt`).
"""

from __future__ import annotations

import sys

from cardgen import interrupt


def main() -> None:
    """Console entry point: the handlers first, then the command line."""
    interrupt.install()
    try:
        from cardgen.cli import run

        status = run()
        interrupt.ignore()
    except interrupt.Interrupted as exc:
        interrupt.ignore()
        status = exc.status
        try:
            sys.stderr.write(exc.word + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    sys.exit(status)


if __name__ == "__main__":
    main()
