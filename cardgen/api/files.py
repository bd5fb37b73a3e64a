"""Files made in memory: what every maker of the API returns, and how they are written.

A :class:`Files` is a read-only mapping from a file's name (``card.pdf``,
``card-inside.svg``; a relative path with ``/`` where a product puts files in a folder)
to its bytes, in the order they were made. Nothing touches the disk until
:meth:`Files.write`, which writes them all into a folder or none of them (cardgen's
one writer, :func:`cardgen.output.write_set`: temporary files renamed into place under
a lock, older files kept until the last rename and restored on any failure).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path, PurePosixPath

from cardgen.errors import CardgenError
from cardgen.output import Written, write_set


def _checked_name(name: object) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a file's name is text, not {type(name).__name__}")
    if (not name or PurePosixPath(name).is_absolute() or "\\" in name or "\0" in name
            or any(part in {"", ".", ".."} for part in name.split("/"))):
        raise CardgenError(f"the file name {name!r} must be a relative path inside the "
                           "output folder, without '..'.", value=name)
    return name


class Files(Mapping[str, bytes]):
    """Files by name, in the order made. ``Files({"card.pdf": data})``; ``a | b`` is
    both sets (a name in both is an error, never a silent overwrite)."""

    __slots__ = ("_files",)

    def __init__(self, files: Mapping[str, bytes] | Iterable[tuple[str, bytes]] = ()) -> None:
        items = files.items() if isinstance(files, Mapping) else files
        made: dict[str, bytes] = {}
        for name, data in items:
            if _checked_name(name) in made:
                raise CardgenError(f"two files are named {name!r}.", value=name)
            if not isinstance(data, bytes):
                raise TypeError(f"{name}: a file's content is bytes, not "
                                f"{type(data).__name__}")
            made[name] = data
        self._files = made

    @classmethod
    def from_paths(cls, files: Mapping[Path, bytes], folder: Path) -> Files:
        """The files a renderer named by path (``folder/stem.pdf``), by name in ``folder``."""
        return cls((path.relative_to(folder).as_posix(), data) for path, data in files.items())

    def __getitem__(self, name: str) -> bytes:
        return self._files[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __or__(self, other: Mapping[str, bytes]) -> Files:
        return Files([*self._files.items(), *other.items()])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Files):
            return list(self._files.items()) == list(other._files.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._files.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name!r}: {len(data):,} bytes" for name, data in self._files.items())
        return f"Files({{{shown}}})"

    def paths(self, folder: Path | str) -> dict[Path, bytes]:
        """The files as they would be written in ``folder``: path to bytes."""
        base = Path(folder)
        return {base / name: data for name, data in self._files.items()}

    def write(self, folder: Path | str) -> list[Written]:
        """Write every file into ``folder`` (made if missing), all of them or none; returns
        each file written and whether it replaced one. Raises
        :class:`~cardgen.errors.OutputError` when the folder cannot take them and
        :class:`~cardgen.errors.RuntimeFault` when the disk fails."""
        return write_set(self.paths(folder))
