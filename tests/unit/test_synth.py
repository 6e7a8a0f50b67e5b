"""The synthetic args.me generator: determinism, format, and the corpus shape it promises."""

from __future__ import annotations

import collections
import io
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import synthcorpus
from argkb.errors import ConfigError
from synthcorpus import Shape, generate, vocabulary, write_json, write_jsonl
from synthcorpus.draws import zipf_index, zipf_share

REPO = Path(__file__).resolve().parents[2]  # synthcorpus/ is not installed with argkb
N = 2000
SEED = 11
CONTEXT_KEYS = {
    "sourceId",
    "previousArgumentInSourceId",
    "acquisitionTime",
    "discussionTitle",
    "sourceTitle",
    "sourceUrl",
    "nextArgumentInSourceId",
}
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_PUNCT = re.compile(r"[^\w\s]")


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return list(generate(N, seed=SEED, truth=True))


def sentences(text: str) -> int:
    return len(_SENTENCE_END.findall(text))


def normalised(text: str) -> str:
    """Case, punctuation and whitespace folded: texts equal under this are one unit in argkb."""
    return " ".join(_PUNCT.sub(" ", text.casefold()).split())


# -- determinism ------------------------------------------------------------------------------


def test_same_seed_gives_the_same_bytes_and_another_seed_does_not(tmp_path: Path) -> None:
    paths = [tmp_path / f"{name}.json" for name in ("a", "b", "c")]
    write_json(paths[0], N, seed=5)
    write_json(paths[1], N, seed=5)
    write_json(paths[2], N, seed=6)
    first = paths[0].read_bytes()
    assert first == paths[1].read_bytes()
    assert first != paths[2].read_bytes()


def test_output_does_not_depend_on_the_process() -> None:
    code = "import sys; from synthcorpus import dump_jsonl; dump_jsonl(sys.stdout, 300, 9)"
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(run.stdout)
    here = io.StringIO()
    synthcorpus.dump_jsonl(here, 300, 9)
    assert outputs[0] == outputs[1] == here.getvalue()


def test_truth_fields_do_not_change_the_corpus(corpus: list[dict[str, Any]]) -> None:
    plain = list(generate(N, seed=SEED))
    assert not any(key.startswith("_") for a in plain for key in a)
    assert not any(key.startswith("_") for a in plain for p in a["premises"] for key in p)
    stripped = [
        {
            **{k: v for k, v in a.items() if not k.startswith("_")},
            "premises": [
                {k: v for k, v in p.items() if not k.startswith("_")} for p in a["premises"]
            ],
        }
        for a in corpus
    ]
    assert stripped == plain


# -- format -----------------------------------------------------------------------------------


def test_json_file_parses_and_has_the_args_me_shape(tmp_path: Path) -> None:
    path = tmp_path / "corpus.json"
    assert write_json(path, N, seed=SEED) == N
    with path.open(encoding="utf-8") as f:
        data = json.load(f)
    assert set(data) == {"arguments"}
    arguments = data["arguments"]
    assert len(arguments) == N
    assert len({a["id"] for a in arguments}) == N
    for a in arguments:
        assert set(a) == {"id", "conclusion", "premises", "context"}
        assert isinstance(a["conclusion"], str) and a["conclusion"].strip()
        assert a["premises"]
        for p in a["premises"]:
            assert set(p) == {"text", "stance", "annotations"}
            assert p["stance"] in {"PRO", "CON"}
            assert isinstance(p["text"], str) and p["text"].strip()
        context = a["context"]
        assert set(context) == CONTEXT_KEYS
        assert a["id"].startswith(context["sourceId"] + "-")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", context["acquisitionTime"])
        assert context["discussionTitle"] and context["sourceUrl"].startswith("http")


def test_arguments_of_a_debate_are_linked_in_order(corpus: list[dict[str, Any]]) -> None:
    by_source: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for a in corpus:
        by_source[a["context"]["sourceId"]].append(a)
    for arguments in by_source.values():
        ids = [a["id"] for a in arguments]
        assert [a["context"]["previousArgumentInSourceId"] for a in arguments] == ["", *ids[:-1]]
        assert [a["context"]["nextArgumentInSourceId"] for a in arguments] == [*ids[1:], ""]
        assert len({a["conclusion"] for a in arguments}) == 1
        assert len({p["stance"] for p in arguments[0]["premises"]}) == 1


def test_jsonl_has_one_argument_per_line(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    assert write_jsonl(path, N, seed=SEED) == N
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == N
    assert [json.loads(line) for line in lines] == list(generate(N, seed=SEED))


@pytest.mark.parametrize("n", [0, 1, 17])
def test_yields_exactly_n_arguments(n: int, tmp_path: Path) -> None:
    assert sum(1 for _ in generate(n, seed=3)) == n
    path = tmp_path / "small.json"
    write_json(path, n, seed=3)
    assert len(json.loads(path.read_text(encoding="utf-8"))["arguments"]) == n


def test_generation_is_lazy() -> None:
    start = time.perf_counter()
    first = list(itertools.islice(generate(10**9, seed=1), 5))
    assert len(first) == 5
    assert time.perf_counter() - start < 2.0  # nothing proportional to n happens up front


def test_invalid_settings_raise_config_error() -> None:
    with pytest.raises(ConfigError):
        generate(-1)
    with pytest.raises(ConfigError):
        Shape(pro_share=1.5)
    with pytest.raises(ConfigError):
        Shape(portals=(("example.org", 1.0),))
    with pytest.raises(ConfigError):
        Shape(premises_per_argument=(0.0, 0.0))


# -- shape ------------------------------------------------------------------------------------


def test_conclusions_are_reused_verbatim_as_premises_with_skewed_popularity(
    corpus: list[dict[str, Any]],
) -> None:
    seen: dict[str, str] = {}  # conclusion text -> first debate that concluded it
    reuse: collections.Counter[str] = collections.Counter()
    for a in corpus:
        seen.setdefault(a["conclusion"], a["context"]["sourceId"])
        for p in a["premises"]:
            if p["text"] in seen and seen[p["text"]] != a["context"]["sourceId"]:
                reuse[p["text"]] += 1
    assert len(reuse) >= 10
    counts = sorted(reuse.values(), reverse=True)
    assert counts[0] >= 3 * statistics.median(counts)


def test_conclusions_recur_across_debates_verbatim_and_paraphrased(
    corpus: list[dict[str, Any]],
) -> None:
    debates = {a["context"]["sourceId"]: a for a in corpus}
    by_text = collections.Counter(a["conclusion"] for a in debates.values())
    assert sum(1 for count in by_text.values() if count > 1) >= 10
    texts_by_cluster: dict[str, set[str]] = collections.defaultdict(set)
    for a in debates.values():
        texts_by_cluster[a["_conclusion_cluster"]].add(a["conclusion"])
    assert sum(1 for texts in texts_by_cluster.values() if len(texts) > 1) >= 10
    sizes = collections.Counter(a["_conclusion_cluster"] for a in debates.values())
    assert 3.0 <= statistics.mean(sizes.values()) <= 10.0  # about 6.1 debates per claim (003)


def test_paraphrased_premises_share_a_cluster_and_differ_in_wording(
    corpus: list[dict[str, Any]],
) -> None:
    texts_by_cluster: dict[str, set[str]] = collections.defaultdict(set)
    for a in corpus:
        for p in a["premises"]:
            if p["_cluster"].startswith("p:") and sentences(p["text"]) == 1:
                texts_by_cluster[p["_cluster"]].add(p["text"])
    paraphrased = [texts for texts in texts_by_cluster.values() if len(texts) > 1]
    assert len(paraphrased) >= 50
    # different words, not only case or punctuation: argkb's unit identity keeps them apart
    assert all(len({normalised(t) for t in texts}) == len(texts) for texts in paraphrased)


def test_one_text_never_carries_two_clusters(corpus: list[dict[str, Any]]) -> None:
    clusters: dict[str, set[str]] = collections.defaultdict(set)
    for a in corpus:
        clusters[normalised(a["conclusion"])].add(a["_conclusion_cluster"])
        for p in a["premises"]:
            clusters[normalised(p["text"])].add(p["_cluster"])
    assert all(len(ids) == 1 for ids in clusters.values())


def test_surface_forms_belong_to_one_meaning() -> None:
    owner: dict[str, str] = {}  # surface form -> canonical form of its meaning

    def claim(forms: tuple[str, ...]) -> None:
        for form in forms:
            assert owner.setdefault(form.casefold(), forms[0]) == forms[0], form

    for domain in vocabulary.DOMAINS.values():
        for forms in (*domain.goods, *domain.bads, *domain.groups, *domain.qualifiers):
            claim(forms)
    for forms in (
        *vocabulary.COMMON_GROUPS,
        *vocabulary.REGIONS,
        *vocabulary.TIMES,
        *vocabulary.ADJUNCTS,
    ):
        claim(forms)
    for _, issue in vocabulary.issues():
        claim(tuple(text for text, _ in issue))


def test_texts_range_from_one_sentence_to_long_posts(corpus: list[dict[str, Any]]) -> None:
    counts = sorted(sentences(p["text"]) for a in corpus for p in a["premises"])
    single = sum(1 for c in counts if c == 1) / len(counts)
    assert 0.1 <= single <= 0.35
    assert 3 <= statistics.median(counts) <= 10
    assert counts[-1] >= 40
    assert max(len(p["text"].split()) for a in corpus for p in a["premises"]) >= 500


def test_pro_and_con_are_mixed(corpus: list[dict[str, Any]]) -> None:
    stances = [p["stance"] for a in corpus for p in a["premises"]]
    assert 0.45 <= stances.count("PRO") / len(stances) <= 0.62


def test_debates_have_about_twelve_premises(corpus: list[dict[str, Any]]) -> None:
    premises: collections.Counter[str] = collections.Counter()
    for a in corpus:
        premises[a["context"]["sourceId"]] += len(a["premises"])
    assert 8.0 <= statistics.mean(premises.values()) <= 15.0  # 11.8 per claim in 001


def test_zipf_sampler_matches_its_probabilities() -> None:
    n, s, draws = 50, 1.1, 100_000
    counts = collections.Counter(zipf_index((i + 0.5) / draws, n, s) for i in range(draws))
    for i in range(n):
        assert counts[i] / draws == pytest.approx(zipf_share(i, n, s), abs=2 / draws)
