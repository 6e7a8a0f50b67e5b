"""Key point selection variants: gold key point coverage at k = gold, on ArgKP train and dev.

    python -m bench keypoint_selection --data ../shared/data/argkp-2021

Every variant takes the same candidates (:func:`argkb.keypoints.generate.candidates`, topic
restatements dropped as the shipped selection does) and picks k = the group's number of gold
key points; coverage is *by label* (a pick covers the gold key points its source argument is
labelled to match), as ``argkb eval kpa --coverage`` reports it. Train is where a variant would
be chosen; dev is printed beside it. The variants:

* ``facility``: the shipped greedy facility location over MiniLM cosines, with the cosine above
  which a candidate counts as redundant with a pick at .6 to .9 (shipped .8);
* ``max coverage``: each step takes the candidate that covers most arguments not yet covered,
  an argument covered when its cosine to a pick is at least t (or, ``model``, when the matching
  model gives it at least .5 with every candidate as a key point);
* ``model dedupe``: facility location, and a candidate that the matching model, reading it as
  an argument, matches to a pick with probability tau or more is dropped;
* ``cluster diversity``: facility location plus lam * (sqrt(n + 1) - sqrt(n)) per argument for a
  candidate whose source argument is in an average-link cluster (of k or 1.5 k) that already has
  n picks (Lin and Bilmes' diversity reward);
* ``arguments``: greedy facility location over the arguments themselves (each pick the argument
  that adds the most to every argument's best cosine to a pick; ``skip above t``: arguments with
  cosine t or more to a pick passed over), each picked argument shown by its first candidate
  sentence (an argument without one is passed over): coverage by label reads only the source;
* ``coreset``: the biased coreset of Fromm et al. (ECIR 2021, Algorithm 1,
  :func:`argkb.retrieve.coreset.biased_coreset`) over the usable candidates, relevance = a
  candidate's centrality (its mean cosine to the group's arguments, min-max scaled), similarity =
  the candidates' cosines, at trade-off alpha; with ``central q`` only the candidates in the top
  q of centrality are kept first. Where facility location takes central wordings first, the
  coreset's min-max term reaches for the points far from every pick, where the small key
  points lie.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from argkb.keypoints import generate
from argkb.keypoints.match import Group, Task

Pick = Callable[[Any], list[int]]  # a prepared group -> indices of its pool, in pick order


class Prepared:
    """One (topic, stance) with its candidates and the cosines a variant reads."""

    def __init__(self, group: Group, vectors: dict[str, Any]) -> None:
        self.group, self.vectors = group, vectors
        self.pool = generate.candidates(group.arguments)
        self.args = np.vstack([vectors[t] for _, t in group.arguments])
        self.cands = np.vstack([vectors[t] for t, _ in self.pool])
        self.sim = self.cands @ self.args.T  # candidate x argument
        self.usable = self.cands @ vectors[group.topic] < generate.TOPIC_COSINE
        self.k = len(group.key_points)


def facility(p: Prepared, red: float = generate.REDUNDANT_COSINE, *, bonus: Any = None,
             drop: Any = None, k: int | None = None) -> list[int]:  # fmt: skip
    """Greedy facility location of ``k`` picks (default: the group's gold count);
    ``bonus(chosen)`` adds to the gain, ``drop(chosen, usable)`` removes more candidates after
    each pick."""
    k = p.k if k is None else k
    best, usable = np.zeros(p.sim.shape[1]), p.usable.copy()
    chosen: list[int] = []
    while len(chosen) < k and usable.any():
        gain = np.maximum(p.sim - best, 0).sum(axis=1)
        if bonus is not None:
            gain = gain + bonus(chosen)
        gain[~usable] = -np.inf
        pick = int(np.argmax(gain))
        chosen.append(pick)
        best = np.maximum(best, p.sim[pick])
        usable &= p.cands @ p.cands[pick] < red
        usable[pick] = False
        if drop is not None and usable.any():
            drop(chosen, usable)
    return chosen


def max_coverage(p: Prepared, covers: Any) -> list[int]:
    """Greedy maximum coverage of ``covers`` (candidate x argument, bool); ties by cosine."""
    covered, usable = np.zeros(covers.shape[1], bool), p.usable.copy()
    chosen: list[int] = []
    while len(chosen) < p.k and usable.any():
        gain = (covers & ~covered).sum(axis=1) + 1e-3 * (p.sim * ~covered).mean(axis=1)
        gain[~usable] = -np.inf
        pick = int(np.argmax(gain))
        chosen.append(pick)
        covered |= covers[pick]
        usable &= p.cands @ p.cands[pick] < generate.REDUNDANT_COSINE
        usable[pick] = False
    return chosen


def model_matrix(
    p: Prepared, key_points: Sequence[int], arguments: Sequence[tuple[str, str]]
) -> Any:
    """P(argument matches key point) by the shipped matching model, arguments x key points."""
    from argkb.keypoints.model import model_scores

    kps = tuple((f"k{j}", p.pool[j][0]) for j in key_points)
    probe = Task((Group(p.group.topic, p.group.stance, tuple(arguments), kps),))
    scores = model_scores(probe, p.vectors)
    return np.array([[scores[a][k] for k, _ in kps] for a, _ in arguments])


def model_dedupe(tau: float) -> Pick:
    def pick(p: Prepared) -> list[int]:
        def drop(chosen: list[int], usable: Any) -> None:
            idx = np.flatnonzero(usable)
            probs = model_matrix(p, chosen, [(f"c{i}", p.pool[i][0]) for i in idx])
            usable[idx[probs.max(axis=1) >= tau]] = False

        return facility(p, drop=drop)

    return pick


def cluster_diversity(factor: float, lam: float) -> Pick:
    def pick(p: Prepared) -> list[int]:
        from scipy.cluster.hierarchy import fcluster, linkage

        clusters = max(2, round(factor * p.k))
        labels = fcluster(linkage(p.args, "average", metric="cosine"), clusters, "maxclust")
        where = {arg_id: labels[i] for i, (arg_id, _) in enumerate(p.group.arguments)}
        of = np.array([where[source] for _, source in p.pool])

        def bonus(chosen: list[int]) -> Any:
            n = np.array([sum(of[c] == of[i] for c in chosen) for i in range(len(p.pool))])
            return lam * (np.sqrt(n + 1) - np.sqrt(n)) * p.sim.shape[1]

        return facility(p, bonus=bonus)

    return pick


def redundant_above(red: float) -> Pick:
    return lambda p: facility(p, red)


def covered_above(t: float) -> Pick:
    return lambda p: max_coverage(p, p.sim >= t)


def covered_by_model(p: Prepared) -> list[int]:
    return max_coverage(p, model_matrix(p, range(len(p.pool)), p.group.arguments).T >= 0.5)


def greedy_facility(sim: Any, k: int, usable: Any, skip: float | None = None) -> list[int]:
    """Greedy facility location over ``sim`` (item x item): each pick the usable item that adds
    the most to every item's best similarity to a pick; ``skip``: items at ``skip`` or more to a
    pick are passed over. Up to ``k`` indices, in pick order."""
    best, usable = np.zeros(len(sim)), usable.copy()
    chosen: list[int] = []
    while len(chosen) < k and usable.any():
        gain = np.maximum(sim - best, 0).sum(axis=1)
        gain[~usable] = -np.inf
        pick = int(np.argmax(gain))
        chosen.append(pick)
        best = np.maximum(best, sim[pick])
        usable[pick] = False
        if skip is not None:
            usable &= sim[pick] < skip
    return chosen


def centrality_coreset(centrality: Any, sim: Any, k: int, alpha: float) -> list[int]:
    """The biased coreset (:func:`argkb.retrieve.coreset.biased_coreset`) with ``centrality``,
    min-max scaled, as the relevance."""
    from argkb.retrieve.coreset import biased_coreset

    r = (centrality - centrality.min()) / (np.ptp(centrality) or 1.0)
    return [int(i) for i in biased_coreset(r, sim, k, alpha).order]


def coreset(alpha: float, central: float = 1.0) -> Pick:
    def pick(p: Prepared) -> list[int]:
        centrality = p.sim.mean(axis=1)
        keep = p.usable.copy()
        if central < 1.0 and keep.sum() > p.k:
            cut = np.quantile(centrality[keep], 1.0 - central)
            keep &= centrality >= cut
        idx = np.flatnonzero(keep)
        if not len(idx):
            return []
        order = centrality_coreset(centrality[idx], p.cands[idx] @ p.cands[idx].T, p.k, alpha)
        return [int(idx[i]) for i in order]

    return pick


def argument_facility(skip: float | None) -> Pick:
    def pick(p: Prepared) -> list[int]:
        first: dict[str, int] = {}
        for i, (_, source) in enumerate(p.pool):
            if p.usable[i]:
                first.setdefault(source, i)
        ids = [arg_id for arg_id, _ in p.group.arguments]
        usable = np.array([a in first for a in ids])
        return [first[ids[a]] for a in greedy_facility(p.args @ p.args.T, p.k, usable, skip)]

    return pick


def variants() -> dict[str, Pick]:
    out: dict[str, Pick] = {}
    for red in (0.6, 0.7, 0.75, 0.8, 0.9):
        shipped = " (shipped)" if red == generate.REDUNDANT_COSINE else ""
        out[f"facility, redundant above {red:g}{shipped}"] = redundant_above(red)
    for t in (0.5, 0.6, 0.7):
        out[f"max coverage, cosine >= {t:g}"] = covered_above(t)
    out["max coverage, model >= .5"] = covered_by_model
    for tau in (0.7, 0.8, 0.9):
        out[f"model dedupe, tau {tau:g}"] = model_dedupe(tau)
    for factor in (1.0, 1.5):
        for lam in (0.05, 0.2):
            out[f"cluster diversity, {factor:g} k clusters, lam {lam:g}"] = cluster_diversity(
                factor, lam
            )
    for skip in (None, 0.7, 0.8, 0.9):
        label = "" if skip is None else f", skip above {skip:g}"
        out[f"arguments, facility{label}"] = argument_facility(skip)
    for central in (1.0, 0.75, 0.5, 0.25):
        for alpha in (0.3, 0.5, 0.7, 0.9):
            label = "" if central == 1.0 else f", central {central:g}"
            out[f"coreset, alpha {alpha:g}{label}"] = coreset(alpha, central)
    return out


def coverage(prepared: list[Prepared], labels: dict[tuple[str, str], int], pick: Pick) -> float:
    covered = gold = 0
    for p in prepared:
        kp_ids = [kp_id for kp_id, _ in p.group.key_points]
        sources = [p.pool[i][1] for i in pick(p)]
        covered += len({g for g in kp_ids for s in sources if labels.get((s, g)) == 1})
        gold += len(kp_ids)
    return covered / gold


def prepare(data: str, split: str) -> tuple[list[Prepared], dict[tuple[str, str], int]]:
    from argkb.embed.model import Embedder
    from argkb.keypoints.evaluate import load_split, split_ids

    loaded = load_split(data, split)
    task = Task.from_split(loaded)
    groups = [g for g in task.groups if g.key_points]
    texts = {t for g in groups for t in (g.topic, *(a for _, a in g.arguments))}
    texts |= {t for g in groups for t, _ in generate.candidates(g.arguments)}
    vectors = generate.embed_for(sorted(texts), Embedder())
    return [Prepared(g, vectors) for g in groups], split_ids(loaded)[2]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="the ArgKP-2021 folder")
    parser.add_argument(
        "--only", help="only the variants whose name holds this text, and the shipped one"
    )
    parser.add_argument(
        "--splits", default="train,dev", help="comma-separated splits to score (train: choose)"
    )
    args = parser.parse_args(argv)
    names = args.splits.split(",")
    splits = {split: prepare(args.data, split) for split in names}
    print(f"| variant | {' | '.join(names)} |\n|---|{'---:|' * len(names)}")
    for name, pick in variants().items():
        if args.only and args.only not in name and "(shipped)" not in name:
            continue
        cells = [f"{coverage(*splits[s], pick):.3f}" for s in names]
        print(f"| {name} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
