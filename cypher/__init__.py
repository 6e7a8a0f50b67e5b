"""Cypher query files, shipped inside the wheel as ``argkb.cypher`` (read with importlib.resources)."""
