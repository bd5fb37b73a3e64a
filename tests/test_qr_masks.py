"""The QR encoder's mask flips, looked up in each mask's 12 × 12 tile
(cardgen.draw.qr._MASK_TILES), are the masks' own formulas asked at every data module,
for every version (the symbols themselves are compared with reportlab's in
tests/test_qr_encoder.py)."""

from __future__ import annotations

import pytest

from cardgen.draw import qr


@pytest.mark.parametrize("version", range(1, 41))
def test_the_tiled_flips_are_the_masks_own(version):
    layout = qr._layout(version)
    assert layout.flips == tuple(bytes(bool(mask(row, col)) for row, col in layout.positions)
                                 for mask in qr._MASKS)
