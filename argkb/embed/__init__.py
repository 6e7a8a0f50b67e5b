"""Sentence embeddings: the offline model wrapper and its content-hash disk cache."""
