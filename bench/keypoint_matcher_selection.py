"""Key point selection by the matchers: coverage of the gold key points at k = gold, train and dev.

    python -m bench keypoint_matcher_selection --data ../shared/data/argkp-2021 --cache DIR

Issue 32's generated key points cover .551 (train) and .556 (dev) of ArgKP's gold key points at
k = gold with the shipped facility location over all-MiniLM-L6-v2 cosines. Its misses are picks
from arguments that match no gold key point and second picks for one key point. This measures
selections that read the shipped matchers instead of (or beside) the cosines, and a few cheap
ones over the cosines, each on :mod:`bench.keypoint_selection`'s candidates (topic restatements
dropped), coverage *by label* as ``argkb eval kpa --coverage`` computes it.

The cross-encoder (``cross_match.safetensors``, through ONNX Runtime on the CPU) reads a
**shortlist** per group: the first :data:`SHORTLIST` candidates of the shipped greedy facility
location with no redundancy filter (so that near-duplicates fall behind; an oracle among them
covers .937 of train's gold key points, .972 of dev's). For each shortlisted candidate c it gives
``A[c, a]`` = P(argument a matches c read as a key point) for every argument of the group, and
``C[c, d]`` = P(candidate d, read as an argument, matches c). ``--cache DIR`` keeps them
(``cross_train.pkl``, ``cross_dev.pkl``); about 50 s a group on two busy cores.

**Caveat**: the cross-encoder and the MLP matcher were trained on all of ArgKP train, so their
train numbers here are in-sample (optimistic); dev is the only held-out check, printed once for
the variant chosen on train.

Variants (all pick k = the group's gold count):

* ``cosine ...``: on the whole pool, over MiniLM cosines: facility location with the
  argumentativeness prior (:mod:`argkb.retrieve.argument_prior`) as a filter or weight,
  cosine^gamma, MMR, density peaks, a greedy DPP;
* ``cross soft facility``: facility location with ``A`` in place of the cosines;
* ``cosine facility, cross redundancy``: the shipped gains; a candidate is dropped once a pick
  matches it (``C`` >= tau) or its *source argument* (``A`` >= tau, what coverage by label reads);
* ``cross PageRank``: PageRank over the shortlist with edge weights ``C`` (Alshomary et al.
  2021), then the best ranked, dropping candidates redundant with a pick as above;
* ``cross votes``: each argument votes for its best shortlisted candidate (``A``); the most
  voted first, dropping candidates redundant with a pick as above;
* ``... profile``: redundancy = correlation of two candidates' ``A`` rows;
* ``model ...``: the same with the MLP matcher (``match_model.npz``) over the shortlist as its
  key points, in place of the cross-encoder;
* ``pair model``: the shipped facility location, and a candidate is dropped once a logistic
  regression gives it and a pick P(their source arguments match one gold key point) >= tau.
  Ten scalar features of the pair (cosines of the sentences, of their source arguments and of
  their cosine profiles over the arguments, word overlap, shared nearest arguments,
  centralities, lengths, topic cosine); train is scored with models fitted on the other three
  of four topic folds, dev with one fitted on all of train.
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from bench import keypoint_selection
from bench.keypoint_selection import Prepared, coverage, facility

SHORTLIST = 35
CANDIDATE_TAUS = (0.5, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999)
PROFILE_TAUS = (0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7)
Pick = Callable[[Any], list[int]]


class Scored(Prepared):
    """A prepared group with what the variants here read besides the cosines."""

    short: Any  # pool indices of the shortlist
    src: Any  # argument column of each shortlisted candidate's source argument
    mats: dict[str, tuple[Any, Any]]  # matcher -> (A, C) over the shortlist
    features: Any  # candidate x candidate x pair features
    same: Any  # candidate x candidate: P(same gold key point)


def prepare(data: str, split: str) -> tuple[list[Scored], dict[tuple[str, str], int]]:
    prepared, labels = keypoint_selection.prepare(data, split)
    return [Scored(p.group, p.vectors) for p in prepared], labels


# ---- cross-encoder matrices over a shortlist ------------------------------------------------


def shortlist(p: Scored, n: int = SHORTLIST) -> list[int]:
    return facility(p, 1.01, k=n)


def cross_matrices(prepared: list[Scored], label: str) -> list[dict[str, Any]]:
    from argkb.keypoints.match import cross_files
    from argkb.stance.cross import CrossStanceModel

    model = CrossStanceModel.load(*cross_files()).use_backend("onnx")
    out, start = [], time.time()
    for i, p in enumerate(prepared):
        short = shortlist(p)
        cands = [p.pool[j][0] for j in short]
        args = [a for _, a in p.group.arguments]
        kps = [c for c in cands for _ in args] + [c for c in cands for _ in cands]
        reads = [a for _ in cands for a in args] + [d for _ in cands for d in cands]
        probs = model.probability(kps, reads)
        n = len(cands) * len(args)
        out.append({"short": short, "A": probs[:n].reshape(len(cands), len(args)),
                    "C": probs[n:].reshape(len(cands), len(cands))})  # fmt: skip
        print(f"{label} group {i + 1}/{len(prepared)}: {time.time() - start:.0f} s", flush=True)
    return out


def attach(prepared: list[Scored], label: str, cache: Path | None) -> None:
    """Set ``p.short``, ``p.mats`` (matcher -> ``(A, C)``) and ``p.src`` (the column of each
    shortlisted candidate's source argument) on every group, from ``cache`` when it has them."""
    path = cache / f"cross_{label}.pkl" if cache else None
    if path is not None and path.exists():
        with path.open("rb") as fh:
            mats = pickle.load(fh)  # written by cross_matrices
    else:
        mats = cross_matrices(prepared, label)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as fh:
                pickle.dump(mats, fh)
    for p, m in zip(prepared, mats, strict=True):
        if list(m["short"]) != shortlist(p):
            raise SystemExit(f"{path}: stale shortlist, delete it")
        column = {arg_id: i for i, (arg_id, _) in enumerate(p.group.arguments)}
        p.short = np.array(m["short"])
        p.src = np.array([column[p.pool[j][1]] for j in p.short])
        p.mats = {"cross": (m["A"], m["C"]), "model": model_matrices(p)}


def model_matrices(p: Scored) -> tuple[Any, Any]:
    """The MLP matcher's ``A`` and ``C`` over the shortlist (candidates as its key points)."""
    from argkb.keypoints.match import Group, Task
    from argkb.keypoints.model import model_scores

    kps = tuple((f"k{i}", p.pool[j][0]) for i, j in enumerate(p.short))
    cands = tuple((f"c{i}", p.pool[j][0]) for i, j in enumerate(p.short))
    probe = Task((Group(p.group.topic, p.group.stance, (*p.group.arguments, *cands), kps),))
    scores = model_scores(probe, p.vectors)
    a = np.array([[scores[arg_id][k] for k, _ in kps] for arg_id, _ in p.group.arguments]).T
    c = np.array([[scores[c_id][k] for k, _ in kps] for c_id, _ in cands]).T
    return a, c


# ---- cheap selections over the cosines ------------------------------------------------------


def prior_logit(p: Scored) -> Any:
    from argkb.retrieve.argument_prior import load

    prior = load()
    words = np.array([len(t.split()) for t, _ in p.pool])
    direction = np.array(prior.direction)
    return prior.norm * (p.cands @ direction) + prior.length * np.log1p(words) + prior.bias


def greedy(p: Scored, gains: Any, weight: Any = 1.0, red: float = 0.8) -> list[int]:
    """Facility location over ``gains`` (candidate x argument), times ``weight``, cosine
    redundancy ``red`` as shipped."""
    best, usable = np.zeros(gains.shape[1]), p.usable.copy()
    chosen: list[int] = []
    while len(chosen) < p.k and usable.any():
        gain = np.maximum(gains - best, 0).sum(axis=1) * weight
        gain[~usable] = -np.inf
        pick = int(np.argmax(gain))
        chosen.append(pick)
        best = np.maximum(best, gains[pick])
        usable &= p.cands @ p.cands[pick] < red
        usable[pick] = False
    return chosen


def prior_filter(q: float) -> Pick:
    def pick(p: Scored) -> list[int]:
        logit = prior_logit(p)
        keep = logit >= np.quantile(logit[p.usable], q) if p.usable.any() else logit > -np.inf
        saved, p.usable = p.usable, p.usable & keep
        try:
            return facility(p)
        finally:
            p.usable = saved

    return pick


def prior_weight(beta: float) -> Pick:
    return lambda p: greedy(p, p.sim, (1 / (1 + np.exp(-prior_logit(p)))) ** beta)


def power(gamma: float) -> Pick:
    return lambda p: greedy(p, np.clip(p.sim, 0, None) ** gamma)


def mmr(lam: float) -> Pick:
    def pick(p: Scored) -> list[int]:
        centrality, cc = p.sim.mean(axis=1), p.cands @ p.cands.T
        usable, chosen = p.usable.copy(), list[int]()
        while len(chosen) < p.k and usable.any():
            red = cc[:, chosen].max(axis=1) if chosen else 0.0
            score = np.where(usable, lam * centrality - (1 - lam) * red, -np.inf)
            chosen.append(int(np.argmax(score)))
            usable[chosen[-1]] = False
        return chosen

    return pick


def density_peaks(t: float, exponent: float) -> Pick:
    """Rodriguez and Laio: density (arguments within cosine t) times the cosine distance to the
    nearest denser candidate."""

    def pick(p: Scored) -> list[int]:
        rho = (p.sim >= t).sum(axis=1) + 1e-3 * p.sim.mean(axis=1)
        cc, delta = p.cands @ p.cands.T, np.full(len(rho), 2.0)
        for i in range(len(rho)):
            denser = (rho > rho[i]) & p.usable
            if denser.any():
                delta[i] = (1 - cc[i, denser]).min()
        score = np.where(p.usable, rho**exponent * delta, -np.inf)
        return [int(i) for i in np.argsort(-score)[: min(p.k, int(p.usable.sum()))]]

    return pick


def logdet(kernel: Any, sub: list[int]) -> float:
    return float(np.linalg.slogdet(kernel[np.ix_(sub, sub)] + 1e-6 * np.eye(len(sub)))[1])


def dpp(alpha: float) -> Pick:
    """Greedy MAP of a DPP with kernel q_i q_j max(cos, 0), q = exp(alpha * z(centrality))."""

    def pick(p: Scored) -> list[int]:
        c = p.sim.mean(axis=1)
        q = np.exp(alpha * (c - c.mean()) / (c.std() + 1e-9))
        kernel = q[:, None] * np.clip(p.cands @ p.cands.T, 0, None) * q[None, :]
        pool, chosen = [int(i) for i in np.flatnonzero(p.usable)], list[int]()
        while len(chosen) < min(p.k, len(pool)):
            rest = [i for i in pool if i not in chosen]
            chosen.append(max(rest, key=lambda i: logdet(kernel, [*chosen, i])))
        return chosen

    return pick


# ---- selections over the cross-encoder's probabilities (shortlist) ---------------------------


def usable_short(p: Scored) -> Any:
    return p.usable[p.short]


def redundant(p: Scored, pick: int, tau: float, how: str, m: str) -> Any:
    """Shortlist positions made redundant by the shortlist position ``pick``, by matcher ``m``."""
    a, c = p.mats[m]
    if how == "candidate":  # the pick matches the candidate read as an argument
        return c[pick] >= tau
    if how == "source":  # the pick matches the candidate's source argument
        return a[pick, p.src] >= tau
    if how == "cosine":
        cands = p.cands[p.short]
        return cands @ cands[pick] >= tau
    rows = a - a.mean(axis=1, keepdims=True)  # "profile"
    rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-9
    return rows @ rows[pick] >= tau


def short_greedy(p: Scored, gains: Any, tau: float, how: str, m: str) -> list[int]:
    """Facility location over ``gains`` (shortlist x argument) with redundancy ``how``/``tau``;
    returns pool indices."""
    best, usable = np.zeros(gains.shape[1]), usable_short(p).copy()
    chosen: list[int] = []
    while len(chosen) < p.k and usable.any():
        gain = np.where(usable, np.maximum(gains - best, 0).sum(axis=1), -np.inf)
        pick = int(np.argmax(gain))
        chosen.append(pick)
        best = np.maximum(best, gains[pick])
        usable &= ~redundant(p, pick, tau, how, m)
        usable[pick] = False
    return [int(p.short[i]) for i in chosen]


def ranked(p: Scored, score: Any, tau: float, how: str, m: str) -> list[int]:
    """The best ``score`` first, skipping what a pick makes redundant; pool indices."""
    usable, chosen = usable_short(p).copy(), list[int]()
    while len(chosen) < p.k and usable.any():
        pick = int(np.argmax(np.where(usable, score, -np.inf)))
        chosen.append(pick)
        usable &= ~redundant(p, pick, tau, how, m)
        usable[pick] = False
    return [int(p.short[i]) for i in chosen]


def pagerank(weights: Any, damping: float = 0.85, steps: int = 100) -> Any:
    w = weights.copy()
    np.fill_diagonal(w, 0)
    w = w / (w.sum(axis=1, keepdims=True) + 1e-12)  # row i: where i's mass goes
    r = np.full(len(w), 1 / len(w))
    for _ in range(steps):
        r = (1 - damping) / len(w) + damping * (w.T @ r)
    return r


def soft(tau: float, how: str, m: str) -> Pick:
    return lambda p: short_greedy(p, p.mats[m][0], tau, how, m)


def cosine_gain(tau: float, how: str, m: str) -> Pick:
    return lambda p: short_greedy(p, p.sim[p.short], tau, how, m)


def page_rank(tau: float, how: str, m: str, edge: float = 0.0) -> Pick:
    """Edge d -> c weighted by P(d, read as an argument, matches c) where that is >= ``edge``:
    mass flows to what matches."""

    def pick(p: Scored) -> list[int]:
        c = p.mats[m][1]
        return ranked(p, pagerank(np.where(c >= edge, c, 0.0).T), tau, how, m)

    return pick


def votes(tau: float, how: str, m: str) -> Pick:
    def pick(p: Scored) -> list[int]:
        a = p.mats[m][0]
        scores = np.where(usable_short(p)[:, None], a, -np.inf)
        counts = np.bincount(np.argmax(scores, axis=0), minlength=len(p.short))
        return ranked(p, counts + 1e-3 * a.mean(axis=1), tau, how, m)

    return pick


# ---- a pair model: P(two candidates' source arguments match one gold key point) -------------


def pair_features(p: Scored) -> Any:
    """Candidate x candidate x 10 scalar features (cosines, word overlap, shared neighbours,
    centralities, lengths, topic cosine)."""
    from argkb.keypoints.match import tokens

    words = [set(tokens(t)) for t, _ in p.pool]
    vocab = {w: i for i, w in enumerate(sorted(set().union(*words)))}
    bags = np.zeros((len(p.pool), max(len(vocab), 1)))
    for i, ws in enumerate(words):
        bags[i, [vocab[w] for w in ws]] = 1
    inter = bags @ bags.T
    sizes = bags.sum(axis=1)
    rows = p.sim - p.sim.mean(axis=1, keepdims=True)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-9
    column = {arg_id: i for i, (arg_id, _) in enumerate(p.group.arguments)}
    src = p.args[[column[s] for _, s in p.pool]]
    near = (p.sim >= np.sort(p.sim, axis=1)[:, [-10]]).astype(float)  # 10 nearest arguments
    centrality = p.sim.mean(axis=1)
    length = np.array([len(t.split()) for t, _ in p.pool], dtype=float)
    topic = p.cands @ p.vectors[p.group.topic]
    return np.stack([p.cands @ p.cands.T, rows @ rows.T,
                     inter / np.maximum(sizes[:, None] + sizes[None, :] - inter, 1),
                     src @ src.T, near @ near.T,
                     np.minimum.outer(centrality, centrality),
                     np.maximum.outer(centrality, centrality),
                     np.minimum.outer(length, length), np.maximum.outer(length, length),
                     np.minimum.outer(topic, topic)], axis=-1)  # fmt: skip


def pair_data(p: Scored, labels: dict[tuple[str, str], int]) -> tuple[Any, Any]:
    """Features and labels (same gold key point) of the candidate pairs whose source arguments
    match exactly one gold key point each."""
    gold = [[labels.get((s, g)) == 1 for g, _ in p.group.key_points] for _, s in p.pool]
    lab = np.array(gold, dtype=float).reshape(len(p.pool), -1)
    single = np.flatnonzero(lab.sum(axis=1) == 1)
    i, j = np.triu_indices(len(single), 1)
    a, b = single[i], single[j]
    return p.features[a, b], ((lab @ lab.T) > 0)[a, b]


def attach_pair_model(prepared: list[Scored], labels: dict[tuple[str, str], int],
                      fit_on: list[Scored] | None = None,
                      fit_labels: dict[tuple[str, str], int] | None = None) -> None:  # fmt: skip
    """Set ``p.same``: P(same key point) by logistic regression on the pair features, fitted on
    the other 3 of 4 topic folds of ``prepared`` (or, with ``fit_on``, on those groups)."""
    from sklearn.linear_model import LogisticRegression

    for p in [*prepared, *(fit_on or [])]:
        if not hasattr(p, "features"):
            p.features = pair_features(p)
    topics = sorted({p.group.topic for p in prepared})
    fold = {t: i % 4 for i, t in enumerate(topics)}
    for f in [None] if fit_on is not None else range(4):
        train = fit_on if fit_on is not None else [p for p in prepared if fold[p.group.topic] != f]
        pairs = [pair_data(p, fit_labels or labels) for p in train]
        x, y = np.vstack([x for x, _ in pairs]), np.concatenate([y for _, y in pairs])
        model = LogisticRegression(max_iter=2000).fit(x, y)
        for p in prepared:
            if fit_on is not None or fold[p.group.topic] == f:
                n = len(p.pool)
                p.same = model.predict_proba(p.features.reshape(n * n, -1))[:, 1].reshape(n, n)


def same_point(tau: float) -> Pick:
    """The shipped facility location, also dropping a candidate once P(same) with a pick >= tau."""

    def pick(p: Scored) -> list[int]:
        def drop(chosen: list[int], usable: Any) -> None:
            usable &= p.same[chosen[-1]] < tau

        return facility(p, drop=drop)

    return pick


def variants() -> dict[str, Pick]:
    out: dict[str, Pick] = {"cosine facility (shipped)": lambda p: facility(p)}
    out |= {f"cosine, prior filter, lowest {q:g} out": prior_filter(q) for q in (0.25, 0.5)}
    out |= {f"cosine, prior weight ^{b:g}": prior_weight(b) for b in (0.5, 1, 2)}
    out |= {f"cosine^{g:g} facility": power(g) for g in (2, 4, 8)}
    out |= {f"cosine MMR, lambda {lam:g}": mmr(lam) for lam in (0.3, 0.5, 0.7)}
    out |= {f"cosine density peaks, t {t:g}, rho^{e:g}": density_peaks(t, e)
            for t in (0.4, 0.5, 0.6) for e in (1, 2)}  # fmt: skip
    out |= {f"cosine DPP, alpha {a:g}": dpp(a) for a in (0.5, 1, 2)}
    out |= {f"cosine facility, redundant: pair model P(same) >= {t:g}": same_point(t)
            for t in (0.4, 0.5, 0.6, 0.7)}  # fmt: skip
    for m in ("cross", "model"):
        for how, taus in (("cosine", (0.8,)), ("candidate", CANDIDATE_TAUS),
                          ("source", (0.5, 0.9, 0.99)), ("profile", PROFILE_TAUS)):  # fmt: skip
            for tau in taus:
                tag = f"{m} {how} >= {tau:g}" if how != "cosine" else f"cosine >= {tau:g}"
                out[f"{m} soft facility, redundant: {tag}"] = soft(tau, how, m)
                out[f"{m} PageRank, redundant: {tag}"] = page_rank(tau, how, m)
                out[f"{m} PageRank, edges >= .5, redundant: {tag}"] = page_rank(tau, how, m, 0.5)
                out[f"{m} votes, redundant: {tag}"] = votes(tau, how, m)
                if how != "cosine":
                    out[f"cosine facility, redundant: {tag}"] = cosine_gain(tau, how, m)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="the ArgKP-2021 folder")
    parser.add_argument("--cache", type=Path, help="folder for the cross-encoder's matrices")
    parser.add_argument("--dev", action="append", default=[], metavar="VARIANT",
                        help="also score this variant (chosen on train) on dev")  # fmt: skip
    args = parser.parse_args(argv)
    train = prepare(args.data, "train")
    attach(train[0], "train", args.cache)
    attach_pair_model(*train)
    score = cast("Callable[[list[Scored], dict[tuple[str, str], int], Pick], float]", coverage)
    table = variants()
    print("| variant | train |\n|---|---:|")
    for name, pick in table.items():
        print(f"| {name} | {score(*train, pick):.3f} |", flush=True)
    if args.dev:
        dev = prepare(args.data, "dev")
        attach(dev[0], "dev", args.cache)
        attach_pair_model(dev[0], dev[1], train[0], train[1])
        print("\n| variant | dev |\n|---|---:|")
        for name in args.dev:
            print(f"| {name} | {score(*dev, table[name]):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
