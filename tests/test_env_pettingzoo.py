"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and what the
observation, the action mask and the rewards mean."""

from __future__ import annotations

import random

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the 'rl' extra (pettingzoo) is not installed")

from helpers import RULES  # noqa: E402

from contack_core.engine.actions import DRAW, PASS, Play  # noqa: E402
from contack_core.env_pettingzoo import ActionCatalogue, ContackAECEnv, OutsideCatalogue  # noqa: E402


# PettingZoo warns about these for every Dict observation carrying an action mask, except
# those of its own classic games, which it lists by name; any other warning fails the test.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("error::UserWarning")
@pytest.mark.parametrize("seats", [2, 4])
def test_pettingzoo_api_test_passes(seats: int) -> None:
    env = ContackAECEnv("parker-1939", seats=seats, seed=3, render_mode="ansi")
    pettingzoo_test.api_test(env, num_cycles=400)


def test_pettingzoo_seed_test_passes() -> None:
    pettingzoo_test.seed_test(lambda: ContackAECEnv("parker-1939", seats=3, options={"hands": 1}), num_cycles=50)


def play_out(env: ContackAECEnv, seed: int) -> tuple[dict[str, float], list[int]]:
    """A whole game of uniformly random masked actions; each agent's summed rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    summed = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        summed[agent] += reward
        if terminated or truncated:
            final = info["scores"]
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return summed, final


@pytest.mark.parametrize("seats, seed", [(2, 1), (3, 8), (5, 2)])
def test_the_rewards_of_a_game_sum_to_its_final_totals(seats: int, seed: int) -> None:
    env = ContackAECEnv("parker-1939", seats=seats)
    summed, final = play_out(env, seed)
    assert [summed[f"seat_{seat}"] for seat in range(seats)] == final
    assert any(total != 0 for total in final)


def test_the_mask_is_exactly_the_legal_actions_of_the_seat_to_move() -> None:
    env = ContackAECEnv("parker-1939", seats=3, seed=4)
    env.reset(seed=4)
    rng = random.Random(0)
    checked = 0
    for _ in range(120):
        agent = env.agent_selection
        state = env.state
        assert state is not None and not state.is_over()
        assert agent == f"seat_{state.current_seat()}"
        mask = env.observe(agent)["action_mask"]
        expected = sorted(env.catalogue.index_of(a) for a in state.legal_actions())
        assert np.flatnonzero(mask).tolist() == expected
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(expected))
        checked += 1
        if env.terminations[env.agent_selection]:
            break
    assert checked > 20


def test_the_observation_shows_the_observers_hand_first_and_never_the_pile_order() -> None:
    env = ContackAECEnv("parker-1939", seats=2, seed=5)
    env.reset(seed=5)
    state = env.state
    assert state is not None
    layout = {name: slice(start, stop) for name, start, stop in env.observation_layout()}
    tiles = len(RULES.tiles)
    for me in (0, 1):
        vector = env.observe(f"seat_{me}")["observation"]
        hands = vector[layout["hands"]].reshape(2, tiles)
        assert set(np.flatnonzero(hands[0])) == set(state.seat_zones["hand"][me])
        assert set(np.flatnonzero(hands[1])) == set(state.seat_zones["hand"][1 - me])
        assert vector[layout["pile"]][0] == len(state.zones["stock"])
        figure = vector[layout["figure"]]
        placed = {env.catalogue.cells[i]: int(v) - 1 for i, v in enumerate(figure) if v}
        assert placed == dict(state.figure.tile_at)
    # The pile's order is not observed: reordering it changes no observation.
    before = env.observe("seat_0")["observation"].copy()
    state.zones["stock"].reverse()
    assert np.array_equal(env.observe("seat_0")["observation"], before)


def test_the_default_catalogue_reaches_every_cell_a_figure_can_reach() -> None:
    catalogue = ActionCatalogue.for_rules(RULES)
    radius = len(RULES.tiles) - 1
    assert catalogue.radius == radius
    assert len(catalogue.cells) == 2 * radius * radius + 2 * radius + 1
    assert catalogue.size == len(catalogue.cells) * len(RULES.tiles) + 2
    # a straight line of every tile from the origin ends inside the window
    assert (radius, 0) in catalogue.cell_index and (radius + 1, 0) not in catalogue.cell_index
    assert catalogue.index_of(DRAW) == catalogue.size - 2
    assert catalogue.index_of(PASS) == catalogue.size - 1
    assert catalogue.index_of(Play(5, (0, 0))) == catalogue.cell_index[(0, 0)] * len(RULES.tiles) + 5
    assert catalogue.index_of(Play(5, (radius + 1, 0))) is None
    assert catalogue.describe(catalogue.index_of(Play(5, (1, 0)))) == "play tile 5 on [1, 0]"


def test_a_small_window_masks_plays_outside_it_or_says_to_widen_it() -> None:
    env = ContackAECEnv("parker-1939", seats=2, seed=6, radius=1)
    assert env.action_space("seat_0").n == 5 * len(RULES.tiles) + 2
    env.reset(seed=6)
    rng = random.Random(1)
    with pytest.raises(OutsideCatalogue, match="radius 1"):
        for _ in range(500):
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                if not env.agents:
                    pytest.fail("a whole game fitted a radius-1 window")
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            state = env.state
            assert state is not None
            assert all(abs(c[0]) + abs(c[1]) <= 1 for c in (a.cell for a in state.legal_actions()
                                                              if isinstance(a, Play)
                                                              and env.catalogue.index_of(a) in legal))
            env.step(int(rng.choice(legal)))


def test_an_illegal_action_is_refused_with_the_legal_ones() -> None:
    env = ContackAECEnv("parker-1939", seats=2, seed=1)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(env.catalogue.pass_index)


def test_bad_construction_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="2 to 7 players; 9 seats"):
        ContackAECEnv("parker-1939", seats=9)
    with pytest.raises(ValueError, match="render_mode"):
        ContackAECEnv("parker-1939", seats=2, render_mode="pixels")


def test_render_describes_the_position() -> None:
    env = ContackAECEnv("parker-1939", seats=2, seed=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "seat_0" in text and "figure:" in text


def _lattice_rulesets() -> list[str]:
    from contack_core import load_rules
    from contack_core.language.documents import shipped_example_ids, shipped_ruleset_ids

    return [rid for rid in [*shipped_ruleset_ids(), *shipped_example_ids()]
            if load_rules(rid).board.name == "triangular-lattice"]


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("ruleset", _lattice_rulesets())
def test_every_ruleset_of_tiles_plays_to_its_end_in_the_environment(ruleset: str) -> None:
    """Discards, house rules' own actions and solitaires included: every legal action has an index
    (no ruleset of tiles is refused), and a game of random masked actions ends."""
    from contack_core import load_rules

    rules = load_rules(ruleset)
    low, high = rules.players
    env = ContackAECEnv(ruleset, seats=min(max(2, low), high),
                        options={"hands": 1} if "hands" in (rules.document.get("options") or {}) else None)
    play_out(env, 5)
    assert all(env.terminations.values())


def test_a_house_rules_own_action_has_an_index_and_a_name() -> None:
    """The exchange of rulesets/examples/exchange-once-a-hand.yaml: one index a tile it may return,
    offered in the mask when the rules offer it, named as typed, and taken when chosen."""
    from contack_core.engine.actions import HouseAction

    env = ContackAECEnv("rulesets/examples/exchange-once-a-hand.yaml", seats=2, options={"hands": 1})
    exchanges = [i for i, action in enumerate(env.catalogue.others, env.catalogue.plays) if type(action) is HouseAction]
    assert len(exchanges) == len(env.rules.tiles)  # one for each tile it may return
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    taken = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        offered = [i for i in exchanges if observation["action_mask"][i]]
        assert sorted(offered) == sorted(env.catalogue.index_of(a) for a in env.state.legal_actions()
                                         if type(a) is HouseAction)
        if offered:
            held = env.state.seat_zones["hand"][env.state.current]
            assert sorted(env.action_to_string(i) for i in offered) == sorted(
                f"exchange {env.rules.tiles.names[t]}" for t in held)
            env.step(offered[0])
            taken += 1
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert taken >= 1


def test_action_names_are_the_notation_a_person_types() -> None:
    env = ContackAECEnv("parker-1939", seats=2, seed=2)
    env.reset(seed=2)
    from contack_core.engine.notation import parse_action

    for index in np.flatnonzero(env.last()[0]["action_mask"]):
        assert parse_action(env.state, env.action_to_string(int(index))) == env._legal[int(index)]
    assert env.action_to_string(env.catalogue.size) == f"no action (the catalogue has {env.catalogue.size})"


def test_a_board_of_pieces_is_refused_saying_why() -> None:
    with pytest.raises(ValueError, match="offers: move"):
        ContackAECEnv("klauber-1937", seats=2)
