"""Millimetres are the one internal unit; points exist only at the PDF boundary."""

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt / PT_PER_MM
