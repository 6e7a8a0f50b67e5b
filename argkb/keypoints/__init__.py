"""Key point analysis (issue 32): match arguments to key points and score the matching.

* :mod:`argkb.keypoints.evaluate`: the ArgMining 2021 KPA shared task's Track 1 measures
  (mAP strict and relaxed) over the ArgKP-2021 CSV files, without Neo4j.
* :mod:`argkb.keypoints.match`: matchers that score (argument, key point) pairs of one topic and
  stance: BM25, embedding cosine, and the trained matching model.
"""
