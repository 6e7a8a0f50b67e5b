"""Premises as sentences: splitting (:mod:`.split`), the graph step that stores them
(:mod:`.store`, ``argkb sentences``) and first-stage retrieval over them (:mod:`.retrieve`).

Touché 2022 Task 1 answers a query with two sentences of an argument, not the whole post
(Wenzlitschke & Sülzle, "Using BERT to retrieve relevant and argumentative sentence pairs").
"""
