"""Stage 4, exports: takes scenes; gives files for other uses: one PNG, SVG or PDF page per face for print
shops, and a Tabletop Simulator save."""
