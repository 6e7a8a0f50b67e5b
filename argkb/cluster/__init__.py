"""Clustering units that mean the same: claims (average linkage) and premises (complete)."""
