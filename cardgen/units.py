"""Unit conversions. The page model works in millimetres; type sizes are in points."""

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
MM_PER_PT = MM_PER_INCH / PT_PER_INCH
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def inch(value: float) -> float:
    """Inches to millimetres."""
    return value * MM_PER_INCH


def pt(value: float) -> float:
    """Points to millimetres."""
    return value * MM_PER_PT


def px_per_mm(dpi: float) -> float:
    """Pixels per millimetre at a resolution in dots per inch."""
    return dpi / MM_PER_INCH
