"""Track 1 of the KPA 2021 shared task (argkb.keypoints.evaluate, argkb eval kpa) on a hand-made
fixture whose average precisions are computed by hand below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.keypoints.evaluate import average_precision, load_split, split_ids, track1
from argkb.keypoints.match import Task, bm25_scores, tokens

TOPIC = "We should ban cars"

ARGUMENTS = f"""arg_id,argument,topic,stance
arg_1_1,Cars pollute the air in cities,{TOPIC},1
arg_1_2,Traffic accidents kill many people,{TOPIC},1
arg_1_3,Cars are noisy,{TOPIC},1
arg_1_4,Exhaust fumes cause asthma,{TOPIC},1
arg_1_5,People need cars to get to work,{TOPIC},-1
arg_1_6,Cars give freedom,{TOPIC},-1
arg_1_7,Rural areas have no buses,{TOPIC},-1
arg_1_8,The car industry employs millions,{TOPIC},-1
"""
KEY_POINTS = f"""key_point_id,key_point,topic,stance
kp_1_1,Cars harm health,{TOPIC},1
kp_1_2,Cars are dangerous,{TOPIC},1
kp_1_3,Cars are needed for work,{TOPIC},-1
"""
# (arg_1_1, kp_1_1) is missing: undecided
LABELS = """arg_id,key_point_id,label
arg_1_1,kp_1_2,0
arg_1_2,kp_1_1,0
arg_1_2,kp_1_2,1
arg_1_3,kp_1_1,0
arg_1_4,kp_1_1,1
arg_1_5,kp_1_3,1
arg_1_6,kp_1_3,0
arg_1_7,kp_1_3,0
arg_1_8,kp_1_3,0
"""
SCORES = {
    # pro: best pairs (score, label): 1_1 (.9, undecided), 1_2 (.8, 1), 1_3 (.7, 0), 1_4 (.2, 1)
    "arg_1_1": {"kp_1_1": 0.9, "kp_1_2": 0.1},
    "arg_1_2": {"kp_1_1": 0.3, "kp_1_2": 0.8},
    "arg_1_3": {"kp_1_1": 0.7, "kp_1_3": 0.95},  # kp_1_3 is con: not a candidate
    "arg_1_4": {"kp_1_1": 0.2},
    # con: 1_5 (.3, 1); 1_6, 1_7, 1_8 unscored -> placeholder pairs (score 0, no match)
    "arg_1_5": {"kp_1_3": 0.3},
}
# pro keeps int(4 * .5) = 2 pairs: 1_1 (.9) and 1_2 (.8).
#   strict labels [0, 1]: AP = 1/2 * 1/2 = .5; relaxed [1, 1]: AP = 1.
# con keeps 1_5 (.3, 1) and the first placeholder, ranked at .99 with no match:
#   [0, 1]: AP = .5 (strict and relaxed).
# mAP strict (.5 + .5) / 2 = .5; relaxed (1 + .5) / 2 = .75.


@pytest.fixture
def data(tmp_path: Path) -> Path:
    (tmp_path / "arguments_dev.csv").write_text(ARGUMENTS)
    (tmp_path / "key_points_dev.csv").write_text(KEY_POINTS)
    (tmp_path / "labels_dev.csv").write_text(LABELS)
    return tmp_path


def test_average_precision_by_hand() -> None:
    assert average_precision([1, 0, 1], [0.9, 0.8, 0.7]) == pytest.approx((1 + 2 / 3) / 2)
    assert average_precision([0, 1, 1], [0.9, 0.8, 0.7]) == pytest.approx((1 / 2 + 2 / 3) / 2)
    # tied scores are one step: precision 1/2 at recall 1
    assert average_precision([1, 0], [0.5, 0.5]) == pytest.approx(0.5)
    assert average_precision([0, 0], [0.5, 0.4]) == 0.0


def test_track1_strict_relaxed_placeholder_and_top_half(data: Path) -> None:
    result = track1(*split_ids(load_split(str(data), "dev")), SCORES)
    by_stance = {g.stance: g for g in result.groups}
    assert by_stance["pro"].kept == 2 and by_stance["con"].kept == 2
    assert by_stance["pro"].ap_strict == pytest.approx(0.5)
    assert by_stance["pro"].ap_relaxed == pytest.approx(1.0)
    assert by_stance["con"].ap_strict == pytest.approx(0.5)
    assert result.map_strict == pytest.approx(0.5)
    assert result.map_relaxed == pytest.approx(0.75)
    assert result.undecided == 1
    picks = {p.arg_id: p for p in result.picks}
    assert picks["arg_1_3"].kp_id == "kp_1_1"  # the other stance's key point is no candidate
    assert picks["arg_1_6"].kp_id is None


def test_bm25_prefers_shared_words(data: Path) -> None:
    task = Task.from_split(load_split(str(data), "dev"))
    scores = bm25_scores(task)
    # "people need cars to get to work" shares car, need, work with "cars are needed for work"
    assert scores["arg_1_5"]["kp_1_3"] > scores["arg_1_6"]["kp_1_3"] > 0
    assert scores["arg_1_7"]["kp_1_3"] == 0  # no word in common
    assert tokens("The cities are noisy") == ["city", "noisy"]


def test_cli_scores_a_predictions_file(data: Path, tmp_path: Path) -> None:
    predictions = tmp_path / "predictions.json"
    predictions.write_text(json.dumps(SCORES))
    result = CliRunner().invoke(
        main,
        ["eval", "kpa", "--data", str(data), "--predictions", str(predictions), "--json"],
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    (row,) = payload["results"]
    assert row["map_strict"] == pytest.approx(0.5)
    assert row["map_relaxed"] == pytest.approx(0.75)
    assert payload["labelled_pairs"] == 9


def test_cli_bm25_runs_on_the_fixture(data: Path) -> None:
    result = CliRunner().invoke(main, ["eval", "kpa", "--data", str(data), "--matcher", "bm25"])
    assert result.exit_code == 0, result.output
    assert "bm25" in result.stdout and "mAP strict" in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"arg_1_1": {"kp_1_1": "high"}}', "kp_1_1"),
        ('{"arg_1_1": [1, 2]}', "arg_1_1"),
        ("not json", "predictions.json"),
    ],
)
def test_cli_bad_predictions_is_one_line(
    data: Path, tmp_path: Path, content: str, message: str
) -> None:
    predictions = tmp_path / "predictions.json"
    predictions.write_text(content)
    result = CliRunner().invoke(
        main, ["eval", "kpa", "--data", str(data), "--predictions", str(predictions)]
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert message in result.output


def test_cli_missing_labels_file_is_one_line(data: Path) -> None:
    (data / "labels_dev.csv").unlink()
    result = CliRunner().invoke(main, ["eval", "kpa", "--data", str(data), "--matcher", "bm25"])
    assert result.exit_code == 1
    assert "labels_dev.csv" in result.output and "Traceback" not in result.output


def test_match_model_forward_pass_by_hand(tmp_path: Path) -> None:
    import numpy as np

    from argkb.keypoints.model import MatchModel

    f32 = np.float32
    # standardise, one ReLU layer of 2 units, then the logistic output
    model = MatchModel(
        np.array([1.0, 0.0], f32),
        np.array([2.0, 1.0], f32),
        [np.array([[1.0, -1.0], [1.0, 1.0]], f32), np.array([[1.0], [2.0]], f32)],
        [np.array([0.0, 0.0], f32), np.array([-1.0], f32)],
    )
    # x = [3, 1] -> standardised [1, 1] -> hidden relu([2, 0]) -> 2*1 + 0*2 - 1 = 1
    path = tmp_path / "m.npz"
    model.save(path)
    loaded = MatchModel.load(path)
    assert loaded.predict(np.array([[3.0, 1.0]], f32))[0] == pytest.approx(1 / (1 + np.exp(-1)))


def test_shipped_model_prefers_the_closer_key_point(data: Path) -> None:
    import numpy as np

    from argkb.keypoints.model import SCALAR_FEATURES, MatchModel, model_scores, pair_features

    task = Task.from_split(load_split(str(data), "dev"))
    rng = np.random.default_rng(0)
    vectors = {text: rng.normal(size=8).astype(np.float32) for text in task.texts()}
    for text in vectors:
        vectors[text] /= np.linalg.norm(vectors[text])
    # arg_1_1 reads exactly like the key point "Cars harm health"
    args = {a: t for g in task.groups for a, t in g.arguments}
    vectors[args["arg_1_1"]] = vectors["Cars harm health"]
    keys, features = pair_features(task, vectors)
    assert features.shape == (len(keys), len(SCALAR_FEATURES))
    scores = model_scores(task, vectors, MatchModel.load())
    assert 0 < scores["arg_1_1"]["kp_1_2"] < scores["arg_1_1"]["kp_1_1"] < 1
    assert set(scores["arg_1_5"]) == {"kp_1_3"}  # candidates: the same topic and stance only


def test_bad_model_file_is_a_config_error(tmp_path: Path) -> None:
    from argkb.errors import ConfigError
    from argkb.keypoints.model import MatchModel

    path = tmp_path / "m.npz"
    path.write_bytes(b"not a model")
    with pytest.raises(ConfigError, match="not a key point matching model"):
        MatchModel.load(path)


def test_shipped_cross_encoder_scores_same_stance_pairs(data: Path) -> None:
    from argkb.keypoints.match import Matcher

    task = Task.from_split(load_split(str(data), "dev"))
    scores = Matcher(task).scores("cross")
    assert set(scores["arg_1_5"]) == {"kp_1_3"}
    assert set(scores["arg_1_1"]) == {"kp_1_1", "kp_1_2"}
    assert all(0 < p < 1 for row in scores.values() for p in row.values())
    # "Traffic accidents kill many people" is about danger, not health
    assert scores["arg_1_2"]["kp_1_2"] > scores["arg_1_2"]["kp_1_1"]


def _train_split(tmp_path: Path) -> Path:
    """A folder with the fixture as ArgKP's train split."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "arguments_train.csv").write_text(ARGUMENTS)
    (data / "key_points_train.csv").write_text(KEY_POINTS)
    (data / "labels_train.csv").write_text(LABELS)
    return data


def test_cross_matcher_training_writes_to_out_dir(tmp_path: Path) -> None:
    from argkb.keypoints.train import main as train_main
    from argkb.stance.cross import CrossStanceModel

    data = _train_split(tmp_path)
    out = tmp_path / "model"
    argv = ["--data", str(data), "--cross", "--pairs", "0", "--epochs", "1", "--seed", "3"]
    assert train_main([*argv, "--out-dir", str(out)]) == 0
    info = json.loads((out / "cross_match.json").read_text())
    assert (info["seed"], info["epochs"], info["trained_on"]["pairs"]) == (3, 1, 9)
    model = CrossStanceModel.load(out / "cross_match.safetensors", out / "cross_match.json")
    (p,) = model.probability(["Cars are dangerous"], ["Traffic accidents kill many people"])
    assert 0 < p < 1
    # argkb eval kpa scores it in place of the shipped model
    for split in ("arguments", "key_points", "labels"):
        (data / f"{split}_dev.csv").write_text((data / f"{split}_train.csv").read_text())
    args = ["eval", "kpa", "--data", str(data), "--matcher", "cross", "--json"]
    shipped = CliRunner().invoke(main, args)
    mine = CliRunner().invoke(main, [*args, "--cross-model", str(out)])
    assert shipped.exit_code == 0 and mine.exit_code == 0, mine.output
    assert json.loads(mine.stdout)["results"][0]["matcher"] == "cross"
    empty = tmp_path / "empty"
    empty.mkdir()
    bad = CliRunner().invoke(main, [*args, "--cross-model", str(empty)])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
    assert bad.output.strip().splitlines() == [
        f"Error: {empty}: no cross_match.safetensors or cross_match.json "
        "(python -m argkb.keypoints.train --cross --out-dir writes them)"
    ]


def test_cross_matcher_training_on_another_encoder_folder(tmp_path: Path) -> None:
    """--base-folder is the encoder trained on, --base the name saved (as a GPU machine trains a
    copy of all-mpnet-base-v2 that lies elsewhere there)."""
    from argkb.embed.model import default_model_path
    from argkb.keypoints.train import main as train_main
    from argkb.stance.cross import CrossStanceModel

    data = _train_split(tmp_path)
    out = tmp_path / "model"
    folder = str(default_model_path())
    argv = ["--data", str(data), "--cross", "--pairs", "0", "--out-dir", str(out)]
    assert train_main([*argv, "--base", "a-name-saved", "--base-folder", folder]) == 0
    info = json.loads((out / "cross_match.json").read_text())
    assert info["base"] == "a-name-saved"
    weights = out / "cross_match.safetensors"
    model = CrossStanceModel.load(weights, out / "cross_match.json", base=folder)
    (p,) = model.probability(["Cars are dangerous"], ["Traffic accidents kill many people"])
    assert 0 < p < 1


def test_cross_matcher_base_folder_needs_a_name(tmp_path: Path) -> None:
    from argkb.keypoints.train import main as train_main

    data = _train_split(tmp_path)
    with pytest.raises(SystemExit) as stop:
        train_main(["--data", str(data), "--cross", "--base-folder", str(tmp_path)])
    assert stop.value.code == 2
