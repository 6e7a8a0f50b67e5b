"""Embedding backends: choice, model ids that keep backends' vectors apart, the ONNX export's
checks and batching, and (slow) the ONNX vectors against sentence-transformers' own."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from argkb.embed.model import BACKEND_ENV, Embedder, resolve_backend
from argkb.embed.onnx import OnnxEncoder, model_dir, read_config
from argkb.errors import ConfigError


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARGKB_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(BACKEND_ENV, raising=False)
    return tmp_path / "home"


def fake_model(folder: Path, *, pooling: str = "pooling_mode_mean_tokens") -> Path:
    """A sentence-transformers folder with configuration only (enough for the checks)."""
    (folder / "1_Pooling").mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    (folder / "model.safetensors").write_bytes(b"\0" * 1000)
    (folder / "tokenizer.json").write_text("{}")
    (folder / "sentence_bert_config.json").write_text('{"max_seq_length": 128}')
    modes = {
        "pooling_mode_cls_token": False,
        "pooling_mode_mean_tokens": False,
        "pooling_mode_max_tokens": False,
    }
    modes[pooling] = True
    (folder / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": 48, **modes})
    )
    return folder


def test_backend_from_argument_then_environment_then_torch(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert resolve_backend(None) == "torch"
    monkeypatch.setenv(BACKEND_ENV, "onnx-int8")
    assert resolve_backend(None) == "onnx-int8"
    assert resolve_backend("onnx") == "onnx"
    monkeypatch.setenv(BACKEND_ENV, "tensorrt")
    with pytest.raises(ConfigError, match=r"\$ARGKB_EMBED_BACKEND: unknown embedding backend"):
        resolve_backend(None)
    with pytest.raises(ConfigError, match="backend: unknown embedding backend 'int4'"):
        resolve_backend("int4")


def test_queries_use_onnx_where_installed_unless_a_backend_is_named(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    folder = fake_model(tmp_path / "mini")
    monkeypatch.setattr("argkb.embed.model.default_model_path", lambda: folder)
    installed = importlib.util.find_spec("onnxruntime") is not None
    assert Embedder.for_queries(cache=False).backend == ("onnx" if installed else "torch")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)  # not installed
    assert Embedder.for_queries(cache=False).backend == "torch"
    monkeypatch.setenv(BACKEND_ENV, "onnx-int8")  # as argkb embed was told: used as it is
    assert Embedder.for_queries(cache=False).backend == "onnx-int8"


def test_model_ids_keep_backends_apart_and_torch_keeps_its_id(home: Path, tmp_path: Path) -> None:
    folder = fake_model(tmp_path / "mini")
    ids = {b: Embedder(folder, backend=b, cache=False).model_id for b in ("torch", "onnx",
                                                                          "onnx-int8")}  # fmt: skip
    assert ids["torch"] == "mini:3e8:sentences"  # what vectors cached before backends carry
    assert len(set(ids.values())) == 3
    assert all(i.startswith("mini:3e8:sentences:") for b, i in ids.items() if b != "torch")


def test_cached_vectors_of_one_backend_are_not_served_to_another(
    home: Path, tmp_path: Path
) -> None:
    folder = fake_model(tmp_path / "mini")
    torch_side = Embedder(folder, backend="torch")
    onnx_side = Embedder(folder, backend="onnx-int8")
    from argkb.embed.cache import EmbeddingCache

    assert isinstance(torch_side._cache, EmbeddingCache)
    assert isinstance(onnx_side._cache, EmbeddingCache)
    assert torch_side._cache.path == onnx_side._cache.path  # one file, rows keyed by model id
    torch_side._cache.put_many(["a text"], np.ones((1, 48), dtype=np.float32))
    assert torch_side._cache.get_many(["a text"])[0] is not None
    assert onnx_side._cache.get_many(["a text"]) == [None]


def test_onnx_backends_refuse_a_gpu(home: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="runs on the CPU only"):
        Embedder(fake_model(tmp_path / "mini"), backend="onnx", device="cuda", cache=False)


def test_read_config_of_a_mean_pooling_folder(tmp_path: Path) -> None:
    assert read_config(fake_model(tmp_path / "mini")) == (128, 48)


def test_read_config_refuses_what_the_export_cannot_reproduce(tmp_path: Path) -> None:
    cls = fake_model(tmp_path / "cls", pooling="pooling_mode_cls_token")
    with pytest.raises(ConfigError, match="pooling_mode_mean_tokens only"):
        read_config(cls)
    no_tokenizer = fake_model(tmp_path / "plain")
    (no_tokenizer / "tokenizer.json").unlink()
    with pytest.raises(ConfigError, match=r"tokenizer\.json: missing"):
        read_config(no_tokenizer)
    broken = fake_model(tmp_path / "broken")
    (broken / "sentence_bert_config.json").write_text('{"max_seq_length": "long"}')
    with pytest.raises(ConfigError, match=r"sentence_bert_config\.json: field"):
        read_config(broken)


def test_model_dir_is_keyed_by_folder_and_fingerprint(home: Path) -> None:
    a = model_dir(Path("/models/mini"), "3e8")
    assert a.parent == home / "onnx"
    assert a != model_dir(Path("/models/mini"), "3e9")
    assert a != model_dir(Path("/models/other"), "3e8")


def test_batches_are_longest_first_and_cover_every_text_once() -> None:
    lengths = [5, 40, 7, 40, 12, 3, 9]
    batches = OnnxEncoder.batches(lengths, 3)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert [len(b) for b in batches] == [3, 3, 1]
    widths = [[lengths[i] for i in b] for b in batches]
    assert widths == [[40, 40, 12], [9, 7, 5], [3]]


@pytest.mark.slow
def test_onnx_vectors_match_sentence_transformers(home: Path) -> None:
    texts = [
        "Nuclear power is safe.",
        "We should ban fossil fuels. They heat the planet! And the air gets dirty.",
        "  leading and trailing spaces  ",
        " ".join(["School uniforms limit expression."] * 40),  # over max_words: sentences
    ]
    reference = Embedder(backend="torch", cache=False).embed(texts, use_cache=False)
    fp32 = Embedder(backend="onnx", cache=False, batch_size=2).embed(texts, use_cache=False)
    int8 = Embedder(backend="onnx-int8", cache=False).embed(texts, use_cache=False)
    assert fp32.shape == int8.shape == reference.shape == (4, 384)
    np.testing.assert_allclose(np.linalg.norm(int8, axis=1), 1.0, atol=1e-5)
    assert np.einsum("ij,ij->i", fp32, reference).min() > 0.99999
    # what lets queries be embedded by ONNX Runtime against vectors torch stored
    assert np.abs(fp32 - reference).max() < 1e-6
    # int8 moves the vectors (docs/benchmarks.md: mean .993 on ArgQuality-20), not the meaning
    cos8 = np.einsum("ij,ij->i", int8, reference)
    assert cos8.min() > 0.97
    assert (int8 @ reference.T).argmax(axis=1).tolist() == [0, 1, 2, 3]
