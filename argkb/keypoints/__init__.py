"""Key point analysis (issue 32): match arguments to key points, score the matching, and
generate the key points of a topic.

* :mod:`argkb.keypoints.evaluate`: the ArgMining 2021 KPA shared task's Track 1 measures
  (mAP strict and relaxed) over the ArgKP-2021 CSV files, without Neo4j (``argkb eval kpa``).
* :mod:`argkb.keypoints.match`: matchers that score (argument, key point) pairs of one topic and
  stance: BM25, embedding cosine, and the trained matching model (:mod:`argkb.keypoints.model`,
  trained by :mod:`argkb.keypoints.train`; the cross-encoder and the ensemble).
* :mod:`argkb.keypoints.generate`: key points chosen from the arguments' sentences, each with
  its prevalence (the arguments the matching model assigns to it); ``argkb eval kpa
  --coverage`` scores them against the gold key points.
* :mod:`argkb.keypoints.topic`: ``argkb keypoints TOPIC``: the premises of a topic in the
  graph, read from Neo4j, summarised per stance by :mod:`~argkb.keypoints.generate`.
"""
