"""The studio's pages, in the order of its navigation: each is a module of this package
with ``routes(studio) -> list[Route]``, and the server reaches a page only through it."""

from __future__ import annotations

PAGES: tuple[str, ...] = ("card",)
