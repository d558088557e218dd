"""Visibility by relation: a zone is seen by ``all``, its ``owner``, its owner's ``partners``,
``nobody``, or its ``top`` tile only, or the whole by some and the top by more. Observations, resampled
states, the bots and what an exec bot is sent all follow it."""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import permute_hidden, read_lines, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_core import GameState, RulesetError, load_rules
from contack_core.engine.bots import make_player
from contack_core.engine.events import Drew
from contack_core.engine.information import Visibility
from contack_core.engine.rules import Rules
from players.external import ExternalPlayer
from players.protocol import event_json, position_json

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PARTNERS = "partners-see-each-other"

#: Each relation a hand may be seen by, and which owners' tiles seat 0 of four (partners 0 and 2,
#: 1 and 3) sees: whole, top tile only, or nothing.
RELATIONS: dict[str, tuple[str, dict[int, str]]] = {
    "all": ("all", {0: "whole", 1: "whole", 2: "whole", 3: "whole"}),
    "owner": ("owner", {0: "whole", 1: "none", 2: "none", 3: "none"}),
    "partners": ("partners", {0: "whole", 1: "none", 2: "whole", 3: "none"}),
    "owner-top-all": ("{whole: owner, top: all}", {0: "whole", 1: "top", 2: "top", 3: "top"}),
    "partners-top-all": ("{whole: partners, top: all}", {0: "whole", 1: "top", 2: "whole", 3: "top"}),
}


def ruleset(tmp_path: Path, visible: str, partnerships: str = "on") -> Rules:
    path = tmp_path / "seen.yaml"
    path.write_text("format: contack-ruleset/1\nid: seen\ntitle: t\nextends: contactack\n"
                    f"options:\n  partnerships:\n    default: \"{partnerships}\"\n"
                    f"zones:\n  hand: {{primitive: hand, visible: {visible}}}\n", encoding="utf-8")
    return load_rules(str(path))


def dealt(rules: Rules, seats: int = 4, seed: int = 1, steps: int = 6) -> GameState:
    """A game of ``rules`` past its deal and a few random decisions, not over."""
    rng = random.Random(seed)
    state = GameState(rules, seats)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
    assert not state.is_over()
    return state


def expected_view(tiles: list[int], seen: str) -> tuple[int | None, ...]:
    if seen == "whole":
        return tuple(tiles)
    if seen == "top" and tiles:
        return (None,) * (len(tiles) - 1) + (tiles[-1],)
    return (None,) * len(tiles)


# ------------------------------------------------------------------------ observations, relation by relation
@pytest.mark.parametrize("relation", RELATIONS)
def test_an_observation_shows_each_hand_to_the_seats_its_relation_names(relation: str, tmp_path: Path) -> None:
    visible, seen_by_0 = RELATIONS[relation]
    state = dealt(ruleset(tmp_path, visible))
    hands = state.seat_zones["hand"]
    assert state.observation(0)["hand"] == tuple(expected_view(hands[o], seen_by_0[o]) for o in range(4))
    # Relations are symmetric in the seats: seat 1 sees seat 3 as seat 0 sees seat 2, and so on.
    shifted = {(o + 1) % 4: seen for o, seen in seen_by_0.items()}
    assert state.observation(1)["hand"] == tuple(expected_view(hands[o], shifted[o]) for o in range(4))
    assert state.observation(0)["stock"] == (None,) * len(state.zones["stock"])


def test_partners_without_teams_is_the_owner_alone(tmp_path: Path) -> None:
    state = dealt(ruleset(tmp_path, "partners", partnerships="off"), seats=3)
    for seat in range(3):
        assert state.observation(seat)["hand"] == tuple(
            tuple(tiles) if owner == seat else (None,) * len(tiles) for owner, tiles in enumerate(state.seat_zones["hand"]))


def test_a_pile_seen_by_nobody_top_or_all(tmp_path: Path) -> None:
    path = tmp_path / "piles.yaml"
    path.write_text("format: contack-ruleset/1\nid: piles\ntitle: t\nextends: solitaire-1\n"
                    "zones:\n  stock: {primitive: pile, visible: nobody}\n"
                    "  discard: {primitive: pile, starts_with: nothing, face: up, visible: top}\n", encoding="utf-8")
    rules = load_rules(str(path))
    assert Visibility.of(rules).describe()["stock"] == "only how many tiles"
    assert Visibility.of(rules).describe()["discard"] == "the top tile; of the rest only how many"
    state = GameState(rules, 1)
    state.zones["discard"].extend(state.zones["stock"][:3])
    del state.zones["stock"][:3]
    seen = state.observation(0)
    assert seen["stock"] == (None,) * len(state.zones["stock"])
    assert seen["discard"] == (None, None, state.zones["discard"][-1])


@pytest.mark.parametrize(("visible", "says"), [
    ("nobody", "a seat plays from its hand, so its owner sees it whole"),
    ("top", "a seat plays from its hand, so its owner sees it whole"),
    ("{whole: nobody, top: all}", "a seat plays from its hand, so its owner sees it whole"),
    ("{whole: all, top: owner}", "visible.top (owner) must reach at least as far as visible.whole (all)"),
    ("{whole: owner, top: friends}", "friends"),
    ("team", "not 'team' (a team is the owner's partners: partners)"),
    ("{whole: owner, tops: all}", "visible has the keys whole and top, not tops"),
])
def test_a_hand_its_owner_cannot_see_or_a_top_narrower_than_the_whole_is_refused(visible: str, says: str,
                                                                                   tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"zones\.hand") as error:
        ruleset(tmp_path, visible)
    assert says in str(error.value)
    result = run_cli("rulesets", "validate", tmp_path / "seen.yaml")
    assert result.exit_code == 1 and "Traceback" not in result.output and "seen.yaml:9:" in result.output
    assert says in result.output and len(result.output.strip().splitlines()) == 1


def test_a_shared_pile_has_no_owner_to_relate_to(tmp_path: Path) -> None:
    path = tmp_path / "owned.yaml"
    path.write_text("format: contack-ruleset/1\nid: owned\ntitle: t\nextends: solitaire-1\n"
                    "zones:\n  discard: {primitive: pile, starts_with: nothing, face: up, visible: partners}\n",
                    encoding="utf-8")
    with pytest.raises(RulesetError, match=r"zones\.discard\.visible.*partners"):
        load_rules(str(path))


# ------------------------------------------------------------------------ resampling and the bots, under partners
def test_the_partners_example_hides_the_opponents_hands_only() -> None:
    rules = load_rules(PARTNERS)
    assert rules.players == (4, 4) and rules.match.teams(4) == [[0, 2], [1, 3]]
    state = dealt(rules)
    for seat in range(4):
        hidden = Visibility.of(rules).hidden_runs(state, seat)
        hidden_ids = {id(tiles) for tiles, _ in hidden}
        hands = state.seat_zones["hand"]
        for owner in range(4):
            assert (id(hands[owner]) in hidden_ids) == (owner % 2 != seat % 2 and bool(hands[owner]))


@PROPERTY
@given(seed=SEEDS, draw=SEEDS, shuffle=SEEDS)
def test_resampling_under_partners_keeps_the_sides_hands_and_ignores_where_hidden_tiles_lie(
        seed: int, draw: int, shuffle: int) -> None:
    state = dealt(load_rules(PARTNERS), seed=seed % 1000, steps=seed % 7)
    seat = state.current
    partner = (seat + 2) % 4
    world = state.resample(seat, random.Random(draw))
    assert world.observation(seat) == state.observation(seat)
    assert world.seat_zones["hand"][seat] == state.seat_zones["hand"][seat]
    assert world.seat_zones["hand"][partner] == state.seat_zones["hand"][partner]  # seen: never redrawn
    assert [len(h) for h in world.seat_zones["hand"]] == [len(h) for h in state.seat_zones["hand"]]
    assert world.legal_actions() == state.legal_actions()
    permuted = permute_hidden(state, seat, random.Random(shuffle))
    assert permuted.seat_zones["hand"][partner] == state.seat_zones["hand"][partner]
    again = permuted.resample(seat, random.Random(draw))
    assert again.zones == world.zones and again.seat_zones == world.seat_zones


def test_resampling_under_partners_does_redraw_the_opponents_hands() -> None:
    state = dealt(load_rules(PARTNERS))
    seat = state.current
    opponents = [(seat + 1) % 4, (seat + 3) % 4]
    redrawn = {tuple(state.resample(seat, random.Random(draw)).seat_zones["hand"][opponents[0]]) for draw in range(50)}
    assert len(redrawn) > 1


@pytest.mark.parametrize("spec", ["greedy", "cautious", "mcts:iterations=25"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, shuffle=SEEDS)
def test_a_bots_choice_under_partners_does_not_depend_on_the_opponents_hidden_tiles(spec: str, seed: int,
                                                                                    shuffle: int) -> None:
    rules = load_rules(PARTNERS)
    state = dealt(rules, seed=seed % 1000, steps=seed % 5)
    other = permute_hidden(state, state.current, random.Random(shuffle))
    assert other.observation(other.current) == state.observation(state.current)

    def choice(at: GameState) -> object:
        player = make_player(spec, seed, rules=rules)
        player.start_game(rules, at.current, at.seat_count)
        return player.choose(at)

    assert choice(state) == choice(other)


# ------------------------------------------------------------------------ what an exec bot is sent
RECORDER = '''\
import json, os, sys
def send(m): print(json.dumps(m), flush=True)
for line in sys.stdin:
    open(os.environ["BOT_TRANSCRIPT"], "a").write(line)
    m = json.loads(line)
    t = m["type"]
    if t == "hello":
        send({"type": "hello", "protocol": "contack-bot/1", "name": "recorder", "rulesets": ["*"]})
    elif t == "new_game":
        send({"type": "ready"})
    elif t == "position":
        send({"type": "action", "index": m["legal"][0]["index"]})
    elif t == "quit":
        break
'''


@pytest.mark.parametrize("relation", RELATIONS)
def test_an_exec_bot_is_sent_exactly_what_its_seat_sees(relation: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    visible, seen_by_0 = RELATIONS[relation]
    rules = ruleset(tmp_path, visible)
    transcript = tmp_path / "transcript.jsonl"
    monkeypatch.setenv("BOT_TRANSCRIPT", str(transcript))
    bot = tmp_path / "recorder.py"
    bot.write_text(textwrap.dedent(RECORDER), encoding="utf-8")
    exec_seat = ExternalPlayer(seed="s0", command=f"{sys.executable} {bot}")
    players = [exec_seat, *(make_player("random", seat, rules=rules) for seat in (1, 2, 3))]
    rng = random.Random(3)
    state = GameState(rules, 4)
    expected_positions: list[dict] = []
    expected_draws: list[tuple[int, bool]] = []
    try:
        for seat, player in enumerate(players):
            player.start_game(rules, seat, 4)
        while not state.is_over() and len(expected_positions) < 12:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_seat()
            if seat == 0:
                expected_positions.append(json.loads(json.dumps(position_json(state, 0))))
                names = rules.tiles.names
                hands = state.seat_zones["hand"]
                assert expected_positions[-1]["zones"]["hand"]["seats"] == [
                    [None if t is None else names[t] for t in expected_view(hands[o], seen_by_0[o])] for o in range(4)]
            action = players[seat].choose(state)
            event = state.apply(action)
            if isinstance(event, Drew) and seat != 0:
                expected_draws.append((seat, seen_by_0[seat] != "none"))
            for player in players:
                player.observe(seat, action, event)
    finally:
        exec_seat.close()
    messages = read_lines(transcript)
    sent = [m["position"] for m in messages if m["type"] == "position"]
    assert sent == expected_positions and sent
    drawn = [m["event"] for m in messages if m["type"] == "observe" and m["event"]["kind"] == "drew" and m["seat"] != 0]
    assert [(d["seat"], "tile" in d) for d in drawn] == expected_draws
    # The same rule without a game: a draw is told with its tile exactly to the seats that see it.
    for drawer in range(4):
        told = event_json(rules, Drew(drawer, 5), 0, 4)
        assert ("tile" in told) == (drawer == 0 or seen_by_0[drawer] != "none")


def test_a_rulesets_visibility_is_worked_out_once() -> None:
    rules = load_rules(PARTNERS)
    assert Visibility.of(rules) is Visibility.of(rules)  # asked at every observation and resample
