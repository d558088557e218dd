"""Geometry and components: the triangle lattice, the square grid of pieces, tile sets."""
