"""Evaluation metrics: nDCG variants, Kendall tau and clustering agreement."""
