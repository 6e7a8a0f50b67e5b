"""Corpus loaders, one module per format, each streaming typed records (ships as argkb.loaders)."""
