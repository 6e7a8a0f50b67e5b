"""Webis-ArgRank-17 evaluation: Table 2 of Wachsmuth, Stein & Ajjour, EACL 2017 (``papers/004``).

For each of the 32 benchmark conclusions, its arguments are ranked by an approach and the ranking
is compared with the experts' ``Aggregate rank`` by Kendall's tau-b (Sec. 6); the table reports
the mean tau over conclusions and, per conclusion, which approach is best / worst.

Approaches (Sec. 6), each scoring an argument from its premises:

``pagerank``
    PageRank of each premise unit, from argkb's Neo4j round trip
    (:func:`argkb.rank.store.run_pagerank`), divided by the unit's frequency ``f(u)``
    (``pagerank_norm="maps"``, the default) or not (``"none"``), then aggregated. A conclusion's
    score goes to all premise slots of its arguments alike (``shared="pool"``, the default) or
    first to its arguments and then to their premises (``"split"``).
``frequency``
    ``f(u)``: the number of Argument Web (AIFdb) maps the unit occurs in, i.e. its rows in
    ``unit-source-list.csv`` -- the "frequency of c in the graph" that Sec. 5.1 says was
    precomputed for every unit, before units with the same text were merged.
``similarity``
    Jaccard similarity of the premise's words and the conclusion's words (``\\w+`` tokens,
    case-folded), on the original AIFdb texts.
``most_premises``
    The number of premises (no aggregation).
``random``
    A uniform random score per argument, one draw per seed; tau and best / worst counts are means
    over the seeds (expected values), so the counts may be fractional.

Every aggregated approach is scored under min, avg, max and sum of its premise scores
(Sec. 4.3, :mod:`argkb.rank.aggregate`). Sentiment (SentiWordNet) is not reproduced.

Readings of the paper, each checked against its Table 2 (see ``docs/eval/argrank.md``):

* **Direction.** Kendall's tau between ``-Aggregate rank`` (rank 1 = most relevant) and the
  score, so a positive tau means agreement. tau-b (:func:`argkb.eval.metrics.kendall_tau`, SciPy)
  handles ties on either side; the paper's worked example ("tau = -0.82" for 3 arguments with one
  tie, Sec. 6) is ``-2 / sqrt(6)``, which only tau-b gives. A ranking without any untied pair has
  no tau-b; it counts as 0 ("Kendall's tau ... applies even when all arguments are ranked
  equally", Sec. 6). Scores are rounded to 12 significant digits first, so that equal scores
  computed along different float paths tie.
* **Best / worst.** Per aggregation column, the competitors are the aggregated approaches under
  that aggregation plus Most premises and Random; per conclusion, every competitor whose tau
  equals the highest (lowest) one within 1e-9 counts one best (worst). Column ``best`` (Table 2
  (e)) compares each approach under its best aggregation. Ties counting for all explains why the
  paper's best counts of column (d) add up to more than 32, and its worst counts of (d) (26 for
  the four aggregated approaches) to fewer than 32 unless Most premises and Random take part.
* **Frequency normalisation.** With ``f(u)`` as above, PageRank / f reproduces the paper's
  per-conclusion taus far better than plain PageRank; the public reproduction
  (hhucn/argument-relevance-paper-results) also divides the paper's released PageRank scores by
  their frequency.
* **Shared conclusions.** The released scores give the premises of a conclusion's 3-premise
  argument the same score as the premise of its 1-premise argument, as ``shared="pool"`` does
  (Sec. 4.2: the contribution of a conclusion "is normalized with the total number of
  premises"); ``"split"`` divides by ``|P_i|`` per argument. Both give the same Sum column here.
  :func:`pagerank_variants` reports these and the other modelling choices side by side.

Beyond the paper, :func:`content_rows` combines the structure with content: embedding similarity
of premise and conclusion (argkb's :class:`~argkb.embed.model.Embedder`), premise length, and
fusions of them with PageRank whose weights are fixed in advance or chosen
leave-one-conclusion-out (:func:`loco_fusion`).

The pure functions take the benchmark arguments (:class:`argkb.loaders.argrank.BenchmarkArgument`)
and per-premise scores; :func:`evaluate_argrank` is the thin Neo4j layer around them. Modules:
:mod:`~argkb.eval.argrank.scoring` (Table 2: taus, aggregation, best / worst),
:mod:`~argkb.eval.argrank.content` (structure + content rows, fusions),
:mod:`~argkb.eval.argrank.variants` (PageRank variants in process),
:mod:`~argkb.eval.argrank.report` (the report and its markdown) and
:mod:`~argkb.eval.argrank.store` (the Neo4j layer); everything public is re-exported here.
"""

from argkb.errors import EvaluationError
from argkb.eval.argrank.content import (
    LOCO_GRID,
    EmbedFn,
    ScoreRow,
    conclusion_ranks,
    content_rows,
    loco_fusion,
    rank_fusion,
    score_row,
)
from argkb.eval.argrank.report import (
    ArgRankReport,
    markdown_paper_table,
    markdown_report,
    markdown_scores,
    markdown_table,
    markdown_variants,
)
from argkb.eval.argrank.scoring import (
    AGGREGATED,
    AGGREGATIONS,
    COLUMNS,
    LABELS,
    PAPER_TABLE2,
    UNAGGREGATED,
    Cell,
    PagerankNorm,
    PremiseScores,
    Row,
    Shared,
    Table2,
    aggregate,
    best_worst,
    conclusion_taus,
    jaccard,
    jaccard_scores,
    mean_tau,
    per_premise,
    random_taus,
    table2,
    words,
)
from argkb.eval.argrank.store import (
    UnitInfo,
    evaluate_argrank,
    load_dataset,
    read_benchmark,
    read_units,
)
from argkb.eval.argrank.variants import GraphArrays, Variant, pagerank_variants

__all__ = [
    "AGGREGATED",
    "AGGREGATIONS",
    "COLUMNS",
    "LABELS",
    "LOCO_GRID",
    "PAPER_TABLE2",
    "UNAGGREGATED",
    "ArgRankReport",
    "Cell",
    "EmbedFn",
    "EvaluationError",
    "GraphArrays",
    "PagerankNorm",
    "PremiseScores",
    "Row",
    "ScoreRow",
    "Shared",
    "Table2",
    "UnitInfo",
    "Variant",
    "aggregate",
    "best_worst",
    "conclusion_ranks",
    "conclusion_taus",
    "content_rows",
    "evaluate_argrank",
    "jaccard",
    "jaccard_scores",
    "load_dataset",
    "loco_fusion",
    "markdown_paper_table",
    "markdown_report",
    "markdown_scores",
    "markdown_table",
    "markdown_variants",
    "mean_tau",
    "pagerank_variants",
    "per_premise",
    "random_taus",
    "rank_fusion",
    "read_benchmark",
    "read_units",
    "score_row",
    "table2",
    "words",
]
