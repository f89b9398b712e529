"""Text and SVG drawings of boards and domino layouts."""
