"""Synthetic args.me-style corpora shaped like debate portals, for tests and benchmarks at scale.

The real args.me corpus (about 387k arguments, ~1 GB of JSON) is not available here, so this
package writes corpora in its format with the structure that matters to argkb: conclusions that
recur across debates, conclusions reused verbatim as premises (graph structure for PageRank),
paraphrased premises (something for clustering to find), a pro/con mix and heavy-tailed text
lengths. Everything comes from a vocabulary built in code; no downloads, no model.

Public API
----------
:func:`generate`
    Yield ``n_arguments`` argument dicts in args.me format, deterministically by ``seed``.
:func:`write_json`, :func:`write_jsonl`
    Stream a corpus to a file as ``{"arguments": [...]}`` or as one argument per line;
    :func:`dump_json`, :func:`dump_jsonl` do the same to an open text stream.
:class:`Shape`
    The knobs of the corpus shape, with defaults taken from the papers (see below).

Output format
-------------
Each argument is ::

    {"id": "3c1f9a07-2019-04-18T00:00:05Z-00000-000",
     "conclusion": "Nuclear power should be banned",
     "premises": [{"text": "...", "stance": "PRO" | "CON", "annotations": []}],
     "context": {"sourceId": "3c1f9a07-2019-04-18T00:00:05Z",
                 "previousArgumentInSourceId": "", "acquisitionTime": "2019-04-18T00:00:05Z",
                 "discussionTitle": "...", "sourceTitle": "...", "sourceUrl": "...",
                 "nextArgumentInSourceId": "3c1f9a07-2019-04-18T00:00:05Z-00001-000"}}

One debate (``sourceId``) holds several arguments with the same conclusion; all premises of one
argument share its stance. Argument ids are unique within a corpus.

Ground truth (``truth=True``)
-----------------------------
Every text expresses one underlying proposition (a *meaning*: a frame such as "X reduces E" with
its slots filled). With ``truth=True`` each premise dict gets a ``"_cluster"`` field and each
argument a ``"_conclusion_cluster"`` field: ids of that meaning, ``"p:<hex>"`` for premise meanings
and ``"c:<hex>"`` for claim meanings. Two texts with the same id are paraphrases of each other
(synonym swaps, another template, a fronted clause, an added hedge); a conclusion reused as a
premise keeps its ``"c:"`` id, so the ids cover claims and premises alike. For a long post the id
is the meaning of its core sentence; the other sentences elaborate on the same meaning (examples,
statistics) or are debate talk ("My opponent has not addressed this point."). Ids depend on the
meaning only, so a premise meaning in two topics (same issue, another qualifier) has one id, and
one exact text never carries two ids. The fields start with ``_`` so a loader can drop them;
leave ``truth`` off for corpora that mimic args.me exactly.

How the shape maps to published statistics
------------------------------------------
Dumani, GvD 2019 (``papers/001``, sec. 4-5) built its corpus from four debate portals, debate.org,
debatepedia.org, debatewise.org and idebate.org, where "the latter [debate.org] contains much more
debates as the other three together"; portal claims become conclusions and the answers premises,
giving "59,126 claims with 695,818 premises, so on average about 11.8 premises per claim".

* ``premises_per_claim = 11.8``: the mean number of premises of a debate (001). With
  ``premises_per_argument = (93, 8, 8, 1)``, the distribution of premises per argument in the
  Webis-ArgRank-17 benchmark (Wachsmuth, Stein & Ajjour, EACL 2017, ``papers/004``, Fig. 3b:
  93 arguments with 1 premise, 8 with 2, 8 with 3, 1 with 4; mean 1.245), a debate has about
  9.5 arguments on average, drawn from a log-normal (``debate_size_sigma``) so that most debates
  are small and a few are long.
* ``portals``: debate.org 0.75 and the three curated portals 0.25 together, following 001's remark
  that debate.org has more debates than the other three combined.
* ``claim_cluster_mean = 6.1``: the same claim recurs in several debates, verbatim or
  paraphrased. The corpus of 001, clustered in Dumani, Neumann & Schenkel, ECIR 2020
  (``papers/003``, sec. 6.1), has 63,250 claims in 10,611 claim clusters, "average cluster size is
  about 6.1, the median is 5"; here each topic has about (its expected debates / 6.1) claim
  meanings, and ``conclusion_verbatim`` of the debates use the canonical wording (so exact
  repeats exist, not only paraphrases).
* ``reuse_rate``, ``reuse_zipf``: a premise slot is, with probability ``reuse_rate``, the verbatim
  conclusion of an earlier debate of the same topic, chosen by a Zipf law over the topic's debates
  in order of appearance (the first debates of a topic are the most reused). 004 (sec. 3, Fig. 2)
  builds its argument graph exactly from such reuse of conclusions as premises, matched by exact
  text (sec. 5.1), and its Fig. 3a shows the skew: of 31,080 units 12,892 are never used as a
  premise, 17,093 once, 694 twice, ... 95 five to nine times and 11 between 10 and 122 times.
  The reused conclusion's stance follows the polarity of the two claims.
* ``premise_cluster_mean``, ``premise_zipf``: premises are drawn from a topic's premise meanings
  by a Zipf law, so a few reasons ("it is too expensive for taxpayers") are given in many debates
  and most only once or twice; 001 (sec. 3.1) plans to "count how frequently a premise cluster from
  this claim supports similar claims in a large corpus", and 003 (Fig. 1) draws the same premise
  cluster supporting different claims. ``paraphrase_rate`` of the occurrences are reworded.
* ``pro_share = 0.53``: 001 reports no pro/con split ("many claims of our dataset do not have a
  stance anyway"); 0.53 is the share of PRO among the 1,610 args.me premises judged in
  Webis-ArgQuality-20 (852 pro, 758 con; ``../shared/data/webis-argquality-20``).
* ``single_sentence_share``, ``sentences_median``, ``sentences_sigma``, ``max_sentences``: text
  lengths from one sentence (curated portals, argument-map units) to long debate.org posts. In the
  Webis-ArgQuality-20 sample of args.me premises (capped at 300 words) the number of sentences has
  quantiles 10%: 1, 25%: 2, 50%: 6, 75%: 11, 90%: 15; uncapped debate.org posts run much longer,
  hence 20% single sentences and otherwise a log-normal (median 8, sigma 0.9) cut at
  ``max_sentences``. Measured on a generated corpus: 10%: 1, 25%: 2, 50%: 6, 75%: 12, 90%: 22,
  99%: 58 sentences; about 1.4 KB of JSON per argument. The real args.me file has about
  2.6 KB per argument (~1 GB for 387k); ``Shape(sentences_median=14, sentences_sigma=1.2,
  max_sentences=300)`` comes close (about 2.4 KB) when benchmarks need realistic byte volumes.
* ``debates_per_topic``, ``topic_zipf``: about 25 debates per topic on average, topic popularity
  Zipf-distributed (a few topics such as the death penalty are debated far more often). Neither
  number is in the papers; they give a few hundred topics at 100k arguments (422) and thousands
  at 1M (about 4,200). Topic names combine 69 issues, four qualifiers per domain and 15 regions
  (5,520 distinct topics); beyond that topic contents repeat, which merges their claim meanings.
  A topic has about 75 claim meanings and 650-900 premise meanings per polarity; the few topics
  debated more than about 75 * 6.1 times reuse claim meanings, so their claim clusters grow
  beyond 6.1 debates (at 100k arguments: mean 6.1, median 6, largest 19).

Memory and determinism
----------------------
:func:`generate` streams: its state is one counter per topic (``n_topics`` ints, about
``n_arguments / 240``) and one debate's arguments at a time. Everything else (a topic's
vocabulary, the conclusion of the ``k``-th debate of a topic, which an argument may reuse much
later) is a pure function of the seed and small integers, recomputed when needed. Peak memory
traced by :mod:`tracemalloc` while consuming :func:`generate`: 0.09 MiB at 100k arguments, 0.11 MiB
at 400k (:func:`write_json` adds its 1 MiB write buffer); 1M arguments run in about 22 MB RSS.

The same seed gives byte-identical output; randomness comes from :class:`random.Random` (only
``random()`` is used, whose sequence Python keeps stable across versions) and a SplitMix64 hash,
never from ``hash()``, so ``PYTHONHASHSEED`` does not matter. (Log-normal draws use ``math.exp``
and ``math.log``; a platform whose libm rounds differently in the last bit could, in rare cases,
round a length differently.)
"""

from synthcorpus.generate import dump_json, dump_jsonl, generate, write_json, write_jsonl
from synthcorpus.plan import Shape

__all__ = ["Shape", "dump_json", "dump_jsonl", "generate", "write_json", "write_jsonl"]
