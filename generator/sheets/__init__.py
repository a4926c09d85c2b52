"""Stage 3, sheets: takes scenes; gives printed pages: imposition lays faces and tiled boards on paper with
crop marks and duplex backs, and the PDF and SVG backends draw them."""
