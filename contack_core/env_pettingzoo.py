"""Any ruleset as a PettingZoo AEC environment, for reinforcement learning.

Install with ``pip install 'contack[rl]'`` (PettingZoo, Gymnasium, NumPy). Example::

    from contack_core.env_pettingzoo import ContackAECEnv
    env = ContackAECEnv(RULESET_ID, seats=4, seed=7)   # any shipped id, or a ruleset file
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

Agents are ``seat_0`` .. ``seat_{n-1}``. Chance (shuffles, deals) is resolved inside the
environment with its own seeded RNG, so an agent only ever sees its own decisions.

**Actions**: one fixed ``Discrete`` space, the same for every agent, enumerated per
ruleset from its tile set: every (tile, cell) for the cells of a window around the
board's origin, then ``draw``, then ``pass``, then every other action the ruleset's turn
rules can offer (each discard of each tile to each pile, a house rule's own action with
each tile it may return). Index ``cell_index * tiles + tile`` is a play, ``plays`` is draw
and ``plays + 1`` is pass; :meth:`ContackAECEnv.action_to_string` names any index as a
person types the action (the notation of ``contack keep``). The window is the diamond of cells
with ``|x - x0| + |y - y0| <= radius``; neighbouring cells differ by one in one
coordinate, so with the default radius (the number of tiles less one) every cell a
figure of connected tiles can ever reach is inside, and the catalogue is exact. A
smaller ``radius`` makes the space smaller: plays outside it are then left out of the
action mask, and if that leaves the seat to move no action at all the environment
raises :class:`OutsideCatalogue` (naming the radius to raise) rather than move for it.
A ruleset whose turn offers actions that depend on the board beyond plays on the figure
(moves of pieces) is refused at construction.

**Observations**: a Dict with ``observation`` (float32 vector, described by
:meth:`ContackAECEnv.observation_layout`) and ``action_mask`` (int8, 1 = legal; all
zeros for an agent that is not to move). The observation is from the observing seat's
point of view (its own hand and score first): the tile on every window cell (tile index
+ 1, 0 if empty), the last cell played (one-hot over the window), each seat's hand as a
0/1 vector over the tiles, each face-up shared pile (a discard pile, a stack) the same
way, each seat's game total and current-hand score, then the size of the face-down piles,
the hand number, the draws taken this turn and the passes in a row. Only what the ruleset
lets the observing seat see is shown (``GameState.observation``: a stack's top, not the tiles
beneath; no tile of a hand the ruleset hides from it); the pile's order never.

**Rewards**: after every step each seat receives the change in its score (its game total
plus what it has scored in the hand under way, penalties included at the end of a
hand), so the rewards of a game sum to its final totals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, cast

import attrs

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"the PettingZoo environment needs the 'rl' extra: pip install 'contack[rl]' ({error})"
    ) from None

from contack_core.boards.lattice import figure_of
from contack_core.engine.actions import DRAW, PASS, Action, Play
from contack_core.engine.information import ZoneView
from contack_core.engine.notation import action_to_string
from contack_core.engine.rules import Rules
from contack_core.engine.state import GameState
from contack_core.primitives.board import TriangularLattice
from contack_core.primitives.loading import load_rules


class OutsideCatalogue(RuntimeError):
    """The seat to move has legal plays, but none inside the action catalogue's window."""


@attrs.frozen
class ActionCatalogue:
    """The fixed enumeration of actions of one ruleset: plays on a window of cells, draw, pass,
    then every other action its turn rules can ever offer (discards, a house rule's own)."""

    tile_count: int
    origin: tuple[int, int]
    radius: int
    cells: tuple[tuple[int, int], ...]
    cell_index: dict[tuple[int, int], int] = attrs.field(eq=False, repr=False)
    #: Draw, pass, then the other rules' actions, each at ``plays + its position``.
    others: tuple[Action, ...] = (DRAW, PASS)
    other_index: dict[Action, int] = attrs.field(eq=False, repr=False, factory=dict)

    @classmethod
    def for_rules(cls, rules: Rules, radius: int | None = None) -> ActionCatalogue:
        tile_count = len(rules.tiles)
        radius = max(tile_count - 1, 0) if radius is None else radius
        if radius < 0:
            raise ValueError(f"radius must be 0 or more, not {radius}")
        board = rules.board
        if not isinstance(board, TriangularLattice):  # _check_action_kinds refused a board of pieces already
            raise ValueError(f"{rules.id}: the PettingZoo environment lays tiles on a triangular lattice")
        x0, y0 = board.origin
        cells = tuple((x0 + dx, y0 + dy) for dy in range(-radius, radius + 1)
                      for dx in range(-(radius - abs(dy)), radius - abs(dy) + 1))
        others: list[Action] = [DRAW, PASS]
        for rule in rules.turn:
            others += [action for action in rule.distinct_actions(tile_count) or () if action not in others]
        plays = len(cells) * tile_count
        return cls(tile_count, (x0, y0), radius, cells, {cell: i for i, cell in enumerate(cells)}, tuple(others),
                   {action: plays + i for i, action in enumerate(others)})

    @property
    def plays(self) -> int:
        return len(self.cells) * self.tile_count

    @property
    def draw_index(self) -> int:
        return self.plays

    @property
    def pass_index(self) -> int:
        return self.plays + 1

    @property
    def size(self) -> int:
        return self.plays + len(self.others)

    def index_of(self, action: Action) -> int | None:
        """The catalogue index of a legal action, or None for a play outside the window."""
        if isinstance(action, Play):
            cell = self.cell_index.get(action.cell)
            return None if cell is None else cell * self.tile_count + action.tile
        index = self.other_index.get(action)
        if index is None:
            raise ValueError(f"a {type(action).__name__.lower()} has no place in the action catalogue")
        return index

    def action(self, index: int) -> Action | None:
        """The action at ``index`` (None: no index of the catalogue)."""
        if 0 <= index < self.plays:
            cell, tile = divmod(index, self.tile_count)
            return Play(tile, self.cells[cell])
        if self.plays <= index < self.size:
            return self.others[index - self.plays]
        return None

    def describe(self, index: int) -> str:
        """The action at ``index`` in words (for messages and rendering)."""
        action = self.action(index)
        if action is None:
            return f"no action (the catalogue has {self.size})"
        if isinstance(action, Play):
            return f"play tile {action.tile} on {list(action.cell)}"
        return type(action).__name__.lower() if action in (DRAW, PASS) else repr(action)


def _check_action_kinds(rules: Rules) -> None:
    unknown = {rule.action_type for rule in rules.turn
               if rule.action_type is not Play and rule.distinct_actions(len(rules.tiles)) is None}
    if unknown:
        names = ", ".join(sorted(k.__name__.lower() for k in unknown))
        raise ValueError(f"{rules.id}: the PettingZoo environment knows plays on the figure and actions it can "
                         f"list in advance (draws, passes, discards, a house rule's own); this ruleset's turn also "
                         f"offers: {names}")


class ContackAECEnv(AECEnv):
    """A ruleset as an agent-environment-cycle game: one seat acts at a time."""

    metadata: ClassVar[dict[str, Any]] = {"name": "contack_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, ruleset_id: str | Rules, seats: int = 2,
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 radius: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = ruleset_id if isinstance(ruleset_id, Rules) else load_rules(ruleset_id, dict(options or {}))
        low, high = self.rules.players
        if not low <= seats <= high:
            raise ValueError(f"{self.rules.id} is {self.rules.for_players()}; {seats} seats given")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        _check_action_kinds(self.rules)
        self.render_mode = render_mode
        self.seat_count = seats
        self.catalogue = ActionCatalogue.for_rules(self.rules, radius)
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self._seed = seed
        self._rng = random.Random(seed)
        #: Shared zones everyone sees (a discard pile, stacks), each observed as a 0/1 vector over tiles.
        self._face_up = [key for key, zone in self.rules.zones.items()
                         if not zone.per_seat and zone.face_up]
        tiles, cells = len(self.rules.tiles), len(self.catalogue.cells)
        self._layout = self._make_layout(tiles, cells)
        length = self._length = sum(size for _, size in self._layout)
        low_bounds = np.zeros(length, dtype=np.float32)
        high_bounds = np.full(length, np.finfo(np.float32).max, dtype=np.float32)
        scores = self._slice("totals").start, self._slice("hand_scores").stop
        low_bounds[scores[0]:scores[1]] = np.finfo(np.float32).min
        observation = gymnasium.spaces.Box(low_bounds, high_bounds, dtype=np.float32)
        mask = gymnasium.spaces.Box(0, 1, shape=(self.catalogue.size,), dtype=np.int8)
        self._observation_space = gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})
        self._action_space = gymnasium.spaces.Discrete(self.catalogue.size)
        self.state: GameState | None = None
        self._legal: dict[int, Action] = {}

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_space

    def _make_layout(self, tiles: int, cells: int) -> list[tuple[str, int]]:
        n = self.seat_count
        return [("figure", cells), ("last", cells), ("hands", n * tiles), ("face_up", len(self._face_up) * tiles),
                ("totals", n), ("hand_scores", n), ("pile", 1), ("hand_number", 1), ("drawn", 1), ("passes", 1)]

    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(part, start, stop) of each part of the observation vector, seats in the observer's order."""
        parts, start = [], 0
        for name, size in self._layout:
            parts.append((name, start, start + size))
            start += size
        return parts

    def _slice(self, part: str) -> slice:
        for name, start, stop in self.observation_layout():
            if name == part:
                return slice(start, stop)
        raise KeyError(part)

    # ----------------------------------------------------------------- the AEC cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` reseeds the chance RNG (else it runs on from before)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = GameState(self.rules, self.seat_count)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._running = self._running_scores()
        self._advance()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None, "call reset() before step()"
        chosen = self._legal.get(int(action)) if action is not None else None
        if chosen is None:
            raise ValueError(f"{agent}: action {action} ({self.catalogue.describe(int(action or -1))}) "
                             f"is not legal now; legal: {sorted(self._legal)}")
        self._cumulative_rewards[agent] = 0
        self.state.apply(chosen)
        self._advance()
        running = self._running_scores()
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = running[seat] - self._running[seat]
        self._running = running
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance, then select the seat to move (or end the game for every agent)."""
        state = self.state
        assert state is not None
        while state.is_chance_node():
            state.apply(state.sample_chance(self._rng))
        if state.is_over():
            self._legal = {}
            for agent in self.agents:
                self.terminations[agent] = True
                self.infos[agent] = {"scores": state.scores(), "winners": state.winners()}
            return
        legal: dict[int, Action] = {}
        for action in state.legal_actions():
            index = self.catalogue.index_of(action)
            if index is not None:
                legal[index] = action
        if not legal:
            raise OutsideCatalogue(
                f"seat {state.current_seat()} may only play outside the action window "
                f"(radius {self.catalogue.radius}); use a larger radius (the default covers every cell)")
        self._legal = legal
        self.agent_selection = self.possible_agents[state.current_seat()]

    def _running_scores(self) -> list[int]:
        state = self.state
        assert state is not None
        totals = state.scores()
        if state.is_over():
            return totals
        gains = state.hand_gains[self.rules.match.counter]
        return [total + gain for total, gain in zip(totals, gains)]

    def action_to_string(self, index: int) -> str:
        """The action at ``index`` as a person types it now (``09-02-08 1,0``, ``draw``,
        ``exchange 03-04-05``: OpenSpiel's ``action_to_string``), or what no index names."""
        action = self._legal.get(index) or self.catalogue.action(index)
        if action is None or self.state is None:
            return self.catalogue.describe(index)
        return action_to_string(self.state, action)

    # ----------------------------------------------------------------- observations
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        assert state is not None, "call reset() before observe()"
        me = self.possible_agents.index(agent)
        order = [(me + k) % self.seat_count for k in range(self.seat_count)]
        vector = np.zeros(self._length, dtype=np.float32)
        cell_index = self.catalogue.cell_index
        figure = self._slice("figure").start
        laid = figure_of(state.figure)
        for cell, tile in laid.tile_at.items():
            index = cell_index.get(cell)
            if index is not None:
                vector[figure + index] = tile + 1
        last = laid.last
        if last is not None and last in cell_index:
            vector[self._slice("last").start + cell_index[last]] = 1
        tiles = len(self.rules.tiles)
        seen = state.observation(me)  # what the ruleset lets this seat see (a stack's top, closed hands)
        hands = self._slice("hands").start
        for position, seat in enumerate(order):
            for key in state.seat_zones:
                for held in cast(tuple[ZoneView, ...], seen[key])[seat]:  # a per-seat zone: a view for each seat
                    if held is not None:
                        vector[hands + position * tiles + held] = 1
        face_up = self._slice("face_up").start
        for position, key in enumerate(self._face_up):
            for shown in cast(ZoneView, seen[key]):  # a shared zone: one view
                if shown is not None:
                    vector[face_up + position * tiles + shown] = 1
        totals = state.scores()
        gains = state.hand_gains[self.rules.match.counter]
        vector[self._slice("totals")] = [totals[seat] for seat in order]
        vector[self._slice("hand_scores")] = [0 if state.is_over() else gains[seat] for seat in order]
        vector[self._slice("pile")] = sum(len(state.zones[key]) for key in state.zones if key not in self._face_up)
        vector[self._slice("hand_number")] = state.hand_number
        vector[self._slice("drawn")] = state.drawn
        vector[self._slice("passes")] = state.passes
        mask = np.zeros(self.catalogue.size, dtype=np.int8)
        if agent == getattr(self, "agent_selection", None) and not state.is_over():
            mask[list(self._legal)] = 1
        return {"observation": vector, "action_mask": mask}

    # ----------------------------------------------------------------- rendering
    def render(self) -> str | None:
        """The position in words: scores, hands and the figure (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi' or 'human')")
            return None
        state = self.state
        if state is None:
            return None
        names = self.rules.tiles.names
        lines = [f"{self.rules.title}, hand {state.hand_number}; scores {state.scores()}"]
        for seat in range(self.seat_count):
            held = " ".join(names[t] for zone in state.seat_zones.values() for t in zone[seat])
            marker = "*" if not state.is_over() and state.current_seat() == seat else " "
            lines.append(f"{marker} seat_{seat}: {held}")
        lines.append("figure: " + ", ".join(f"{list(cell)} {names[tile]}" for cell, tile in state.figure.tile_at.items()))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no processes, files or windows."""
