"""Print targets: the print shop and the print-on-demand services a card's files are for.

A target is a profile, data in ``templates/print/targets/NAME.toml`` (or a ``.toml``
file of your own of the same form): the files the service takes, their PDF/X standard,
the ink limit and what happens to a colour over it, the product the card is printed as,
the images' pixel size. ``shop`` is the default: the files cardgen has always made.

    >>> import cardgen
    >>> cardgen.print_targets()
    ('drivethrucards', 'shop', 'thegamecrafter')
    >>> cardgen.load_target("drivethrucards").ink.limit
    2.4
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.prepress.targets import InkRule, Target

if TYPE_CHECKING:
    from cardgen.draw.page import Document
    from cardgen.render import Format

__all__ = ["InkRule", "Target", "load_target", "print_targets", "target_conflict", "target_files"]


def print_targets(folder: Path | None = None) -> tuple[str, ...]:
    """The names of the print targets, sorted.

    Args:
        folder: a folder of profiles (``NAME.toml``); the bundled ones by default.

    Returns:
        The names ``load_target`` takes, e.g. ``("drivethrucards", "shop",
        "thegamecrafter")``.
    """
    from cardgen.prepress.targets import target_names

    return target_names(folder)


def load_target(name: str | Path | Target = "shop", folder: Path | None = None) -> Target:
    """A print target, read from its profile and checked.

    Args:
        name: a target's name (any case; see :func:`print_targets`), the path of a
            profile ``.toml`` file, or a ``Target`` (returned as it is).
        folder: where named profiles are looked up; the bundled ones by default.

    Returns:
        The :class:`~cardgen.prepress.targets.Target`.

    Raises:
        ParameterError: ``target`` is no target's name (the message lists them).
        ConfigError: the profile breaks the profile schema: the file and every key at
            fault are named (an unknown key with the closest one suggested, a value of
            the wrong type with the field named).
        InputFileError: the profile file cannot be read.

    Example:
        >>> load_target("thegamecrafter").images.width_px
        900
    """
    from cardgen.prepress.targets import Target
    from cardgen.prepress.targets import load_target as load

    if isinstance(name, Target):
        return name
    return load(name, folder)


def target_files(document: Document, target: Target, stem: Path,
                 formats: Iterable[Format | str], *, cmyk: bool = True, dpi: float = 300,
                 progress: Callable[[int, int], None] | None = None) -> dict[Path, bytes]:
    """A laid-out document's files as ``target`` takes them.

    The formats asked for are narrowed to the target's; a target with ``[images]``
    makes one PNG a face at its resolution, named by its pattern (``card-outside.png``),
    and the pixel size its profile states. Everything else is named after ``stem``, as
    :func:`cardgen.render.render_files` names it.

    Args:
        document: the laid-out document (built for ``target``).
        target: the print target.
        stem: the folder and the file name without its extension.
        formats: the formats asked for (``"pdf"`` or ``Format.PDF``).
        cmyk: CMYK colours (print) rather than RGB (screen).
        dpi: the PNG resolution, when the target sets none.
        progress: told (files made, files) as the files are made.

    Returns:
        The files by path, in the order made.

    Raises:
        ParameterError: ``formats`` holds none of the target's formats.
        RuntimeFault: an image does not come out at the profile's pixel size.
    """
    import struct

    from cardgen.errors import ParameterError, RuntimeFault
    from cardgen.render import Format, render, render_files

    wanted = [Format(f) for f in formats]
    chosen = [f for f in wanted if f.value in target.formats]
    if not chosen:
        raise ParameterError("formats", f"asks for {', '.join(f.value for f in wanted)}; "
                             f"target {target.key} takes only "
                             f"{', '.join(f.value for f in target.formats)}.", value=wanted)
    images = target.images
    if images is None or Format.PNG not in chosen:
        return render_files(document, stem, chosen, cmyk=cmyk, dpi=dpi, progress=progress)
    files = render_files(document, stem, [f for f in chosen if f is not Format.PNG],
                         cmyk=cmyk, dpi=images.dpi) if len(chosen) > 1 else {}
    made = render(document, [Format.PNG], cmyk=cmyk, dpi=images.dpi, progress=progress)
    for view, data in zip(document.views(preview=True), made.values(), strict=True):
        size = struct.unpack(">II", data[16:24])  # the PNG header's width and height
        if size != (images.width_px, images.height_px):
            raise RuntimeFault(f"the {view.name} image came out {size[0]} × {size[1]} pixels, "
                               f"not the {images.width_px} × {images.height_px} of target "
                               f"{target.key}.", value=size)
        files[stem.with_name(images.file_name(stem.name, view.name))] = data
    return files


def target_conflict(service: Target, *, formats: Iterable[Format | str],
                    dieline: str = "file", varnish: object = None, rgb: bool = False,
                    dpi: float | None = None, marks: bool | None = None,
                    output_intent: str | None = None, batch: bool = False
                    ) -> tuple[str, str] | None:
    """The first setting a print target cannot be made with, or None: the parameter's
    name and why, in the service's terms. ``shop`` takes every setting. A service that
    takes no dieline or varnish plate refuses ``dieline="layer"`` and a varnish, one
    whose files are PDF/X ``rgb``, one with images of its own resolution another
    ``dpi``, one that sets the marks or the printing condition a ``marks`` or an
    ``output_intent`` that says otherwise; a batch is made for the print shop only; and
    ``formats`` must ask for one of the files the service takes.

    >>> target_conflict(load_target("drivethrucards"), formats="pdf", rgb=True)
    ('rgb', 'it takes a CMYK print file')
    """
    from cardgen.api.common import format_list

    if service.key == "shop":
        return None
    clash: tuple[str, str] | None = None
    if batch:
        clash = "batch", "a batch is made for a print shop"
    elif not service.dieline and str(dieline) == "layer":
        clash = "dieline", "it cuts the card's rectangle and takes no dieline"
    elif not service.varnish and varnish is not None:
        clash = "varnish", "it takes no varnish plate"
    elif rgb and service.images is None:
        clash = "rgb", "it takes a CMYK print file"
    elif service.images is not None and dpi is not None and dpi != service.images.dpi:
        clash = "dpi", f"it takes images at {service.images.dpi:g} dpi"
    elif service.marks is not None and marks is not None and marks != service.marks:
        clash = "marks", f"its files have {'no ' if not service.marks else ''}crop marks"
    elif (service.output_intent is not None and output_intent is not None
          and output_intent.strip().lower() != service.output_intent.identifier.lower()):
        clash = "output_intent", f"its files name {service.output_intent.identifier}"
    if clash is None and not any(f.value in service.formats for f in format_list(formats)):
        clash = "formats", f"it takes only {', '.join(service.formats)}"
    return clash
