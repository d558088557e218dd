"""The player interface, and how seats find their players (entry-point group ``contack.players``).

Writing a bot
-------------
A bot is a subclass of :class:`Player` registered under the entry-point group
``contack.players`` (``[project.entry-points."contack.players"] mybot = "mypkg.bot:MyBot"``).
The engine talks to it in the spirit of OpenSpiel's bots:

``name``, ``description``
    How the bot is listed by ``contack players list`` and named in ``--seats``.
``parameters``
    ``{name: Parameter(name, type, default, help)}``. ``--seats mybot:depth=3`` is parsed and
    checked against them; the resolved values (defaults filled in) are ``self.params``.
``cannot_play(rules)``
    Why the bot cannot play a ruleset, from the ruleset's features (``None``: it can). The
    built-in bots play every ruleset; asking a bot to play one it refuses is a
    :class:`PlayerSpecError` carrying the reason.
``supports``
    Optional, for bots written for named rulesets: their ids (``None``, the default, for every
    ruleset). A ruleset that ``extends`` a supported one is supported too.
``__init__(seed, **params)``
    Everything random in the bot must come from ``seed``, so games reproduce.
``start_game(rules, seat, seat_count)``
    Called once before each game.
``choose(state) -> action``
    Return one of ``state.legal_actions()``. The bot may read what its seat can see
    (``state.observation(seat)``: the figure, the zones the ruleset shows its seat, such as
    Parker's open hands, the scores, the size of a face-down pile), never what it hides (the
    pile's order). To look ahead it applies actions to ``state.resample(seat, rng)``, a copy in
    which every hidden tile is redrawn; a plain ``clone()`` keeps the pile's true order, so
    searching it is peeking.
``observe(seat, action, event)``
    Called after every decision of every seat (its own included).
``end_game(state)``
    Called once when the game is over.
``close()``
    Release what the bot holds (an external bot stops its process here). The caller that
    made the player calls it, once, after its last game.

Budgets: :class:`Budget` gives the time a move may take and an optional iteration limit;
``play_game`` sets ``player.budget`` before the game. A bot that searches should stop
within both. Under a clock the referee also sets ``player.deadline`` for each move; a bot whose
``choose`` is marked :func:`keeps_deadline` answers by it and is called directly (no thread,
no copy of the state). A bot that raises, returns an illegal action or overruns its time is a
*fault*, handled by the game's fault policy (see :mod:`contack_core.engine.referee`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import attrs

if TYPE_CHECKING:
    from contack_core.engine.actions import Action
    from contack_core.engine.events import Event
    from contack_core.engine.rules import Rules
    from contack_core.engine.state import GameState

ENTRY_POINT_GROUP = "contack.players"

_TRUE = frozenset({"true", "on", "yes", "1"})
_FALSE = frozenset({"false", "off", "no", "0"})


class PlayerSpecError(ValueError):
    """An unknown player, a bad parameter, or a ruleset the player does not support."""


class Resigned(Exception):
    """Raised by a player's ``choose`` to leave the game (a person who types quit, or whose input
    ends): the seat forfeits the game at once, whatever the fault policy, and it is told as a
    resignation in the player's words, not as a bot's failure."""


class PlayerFault(Exception):
    """Raised by a player for a fault it words itself (an external program's: its author may know
    no Python): the referee records ``reason`` as it is, not as an exception ("choose raised
    ...") and as ``kind`` (``raised``, ``illegal`` or ``timeout``), as for a bot in Python.

    ``gone``: the player can play no more moves (its program is dead), so the seat forfeits the
    game at once whatever the fault policy: ``pass`` is for a bot that can go on after a bad move.
    """

    def __init__(self, reason: str, kind: str = "raised", gone: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind
        self.gone = gone


class MoveTimeout(Exception):
    """Raised by a player that keeps the move clock itself (``keeps_time``) when a move
    overran its ``budget``: the referee records it as a timeout, in the player's words."""


@attrs.frozen
class Parameter:
    """One tunable value of a bot: its type, its default and what it does."""

    name: str
    type: type
    default: Any
    help: str = ""

    def parse(self, value: object, bot: str) -> Any:
        """``value`` (text from the command line, or a value from a config) as this type."""
        if isinstance(value, str):
            text = value.strip()
            if self.type is bool:
                if text.lower() in _TRUE:
                    return True
                if text.lower() in _FALSE:
                    return False
            else:
                try:
                    return self.type(text)
                except ValueError:
                    pass
            raise PlayerSpecError(f"player {bot!r}: parameter {self.name} takes {_describe(self.type)}, "
                                  f"not {value!r}")
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if type(value) is not self.type:
            raise PlayerSpecError(f"player {bot!r}: parameter {self.name} takes {_describe(self.type)}, "
                                  f"not {value!r} ({type(value).__name__})")
        return value


def _describe(kind: type) -> str:
    return {int: "a whole number", float: "a number", bool: "true/false (on/off)", str: "a text"}.get(
        kind, kind.__name__)


#: The longest time per move a budget may give, in seconds (a day): a clock longer than
#: that is a mistake (``inf`` or ``nan`` in a config), and threads cannot wait on it anyway.
MAX_TIME_PER_MOVE = 86_400.0


def _check_time(budget: Budget, attribute: attrs.Attribute[float | None], value: float | None) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_TIME_PER_MOVE:
        raise ValueError(f"time_per_move is a number of seconds above 0 and at most {MAX_TIME_PER_MOVE:g} "
                         f"(null for no limit), not {value!r}")


def _check_iterations(budget: Budget, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"iterations is a whole number from 1 (null for no limit), not {value!r}")


@attrs.frozen
class Budget:
    """What a move may cost: seconds of wall clock (None: unlimited) and search iterations.

    Both are checked when the budget is made (``nan``, ``inf`` or a negative time is a
    ValueError), so a game never starts with a clock it cannot keep.
    """

    time_per_move: float | None = attrs.field(default=None, validator=_check_time)
    iterations: int | None = attrs.field(default=None, validator=_check_iterations)


UNLIMITED = Budget()


#: A player's ``choose``, as :func:`keeps_deadline` marks it and gives it back.
ChooseT = TypeVar("ChooseT", bound=Callable[..., object])


def keeps_deadline(choose: ChooseT) -> ChooseT:
    """Mark a player's ``choose`` as answering by ``self.deadline`` by itself: a search that checks
    the clock, or a pick whose work is small and bounded (one ply). The referee then spares it the
    worker thread and the copy of the state that enforce a clock on a player that might hang (about
    230 us a decision); it still charges a timeout when the answer comes late. Only for code you
    trust to keep the promise: a choose that hangs would hang the game."""
    setattr(choose, "keeps_deadline", True)  # a function's own attribute, which no type declares
    return choose


class Player:
    """Base class of bots: choose one of ``state.legal_actions()`` for the current seat."""

    name: ClassVar[str] = "player"
    description: ClassVar[str] = ""
    parameters: ClassVar[dict[str, Parameter]] = {}
    supports: ClassVar[frozenset[str] | None] = None
    #: What ``players list`` says of the rulesets the bot plays, when it cannot be worked out from
    #: the bot's class (an external program says which in its handshake).
    plays_note: ClassVar[str | None] = None
    #: False for a player that waits for a person: no clock runs on it.
    timed: ClassVar[bool] = True
    #: True for a player that enforces ``budget.time_per_move`` itself, every wait in its
    #: ``choose`` bounded (an external program it can kill): the referee then calls it
    #: directly instead of on a copy of the state in a clocked thread, and its
    #: :class:`MoveTimeout` is the timeout fault.
    keeps_time: ClassVar[bool] = False
    #: Set by ``play_game`` before each game; a searching bot stops within it.
    budget: Budget = UNLIMITED
    #: When the move being chosen must be answered, in ``time.perf_counter()`` seconds: set by the
    #: referee before each ``choose`` under a clock, None otherwise. A search stops before it.
    deadline: float | None = None
    #: True for a player that shows the position to a person (``human``): the command line then
    #: gives it :attr:`picture`, the figure drawn as ``contack replay`` draws it (those drawings
    #: sit in a layer above the engine).
    shows_position: ClassVar[bool] = False
    #: How the position is drawn for a person (None: the tiles listed).
    picture: Callable[[GameState], list[str] | None] | None = None

    def __init__(self, seed: int | str | None = None, **params: Any) -> None:
        self.seed = seed
        self.params: dict[str, Any] = self.resolve_parameters(params)

    @property
    def keeps_deadline(self) -> bool:
        """Whether this player's ``choose`` answers by :attr:`deadline` on its own (it is marked
        with :func:`keeps_deadline`): the referee then calls it directly under a clock, with no
        thread and no copy of the state, and charges a late answer afterwards. A subclass that
        overrides ``choose`` without the mark is run in a clocked thread again."""
        return getattr(type(self).choose, "keeps_deadline", False)

    @classmethod
    def resolve_parameters(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """The bot's parameters: ``given`` parsed and checked, defaults for the rest."""
        unknown = [key for key in given if key not in cls.parameters]
        if unknown:
            known = ", ".join(f"{p.name} (default {p.default})" for p in cls.parameters.values())
            raise PlayerSpecError(f"player {cls.name!r} has no parameter {', '.join(map(repr, unknown))} "
                                  f"({'its parameters: ' + known if known else 'it takes no parameters'})")
        return {key: (spec.parse(given[key], cls.name) if key in given else spec.default)
                for key, spec in cls.parameters.items()}

    @classmethod
    def cannot_play(cls, rules: Rules) -> str | None:
        """Why this bot cannot play ``rules`` (None when it can). The default reads ``supports``:
        a bot written for named rulesets plays them and the rulesets that extend them."""
        if cls.supports is None or any(ruleset in cls.supports for ruleset in (rules.id, *rules.chain)):
            return None
        supported = ", ".join(sorted(cls.supports))
        if any(ruleset in cls.supports for ruleset in rules.chain):  # the bot itself excludes it
            return f"it supports: {supported} and the rulesets that extend them, but not {rules.id}"
        return f"it supports: {supported}"

    @classmethod
    def supports_rules(cls, rules: Rules) -> bool:
        """Whether this bot can play ``rules`` (see :meth:`cannot_play`)."""
        return cls.cannot_play(rules) is None

    def cannot_start(self, rules: Rules) -> str | None:
        """Why this player cannot begin a game of ``rules`` (None when it can), asked before a game
        that names it is begun, so that a seat that cannot play is refused as bad input rather
        than forfeited. An in-process bot can; a bot in another process is started and asked."""
        return None

    def start_game(self, rules: Rules, seat: int, seat_count: int) -> None:
        """A game begins; this bot sits at ``seat`` of ``seat_count``."""

    def choose(self, state: GameState) -> Action:
        raise NotImplementedError

    def observe(self, seat: int, action: Action, event: Event) -> None:
        """``seat`` took ``action`` and ``event`` happened (called for every seat's decisions)."""

    def end_game(self, state: GameState) -> None:
        """The game is over (``state`` is final)."""

    def close(self) -> None:
        """Release resources; called once by whoever made the player, after its last game."""


def rulesets_note(cls: type[Player], rulesets: Sequence[Rules]) -> str:
    """What ``players list`` says of the rulesets a bot plays: ``every ruleset`` (of ``rulesets``,
    the ones installed), or those it does not play and why, from their features."""
    if cls.plays_note is not None:
        return cls.plays_note
    if cls.supports is not None:
        return ", ".join(sorted(cls.supports)) + " and the rulesets that extend them"
    refused = [(rules.id, why) for rules in rulesets if (why := cls.cannot_play(rules)) is not None]
    if not refused:
        return "every ruleset"
    return "every ruleset but " + "; ".join(f"{ruleset} ({why})" for ruleset, why in refused)


def installed_players() -> dict[str, EntryPoint]:
    """Entry points of the ``contack.players`` group, by name."""
    return {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}


#: The seat prefix of an external program: ``exec:COMMAND`` (the player registered as ``exec``).
EXEC = "exec"


def _split_outside_quotes(text: str) -> list[str]:
    """Split at commas that are not inside single or double quotes (the quotes are kept)."""
    pieces: list[str] = []
    current: list[str] = []
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            pieces.append("".join(current))
            current = []
            continue
        current.append(char)
    pieces.append("".join(current))
    return pieces


def split_seats(text: str) -> list[str]:
    """``"mcts:iterations=400,c=2,greedy,random"`` -> ["mcts:iterations=400,c=2", "greedy", "random"].

    A comma separates seats; a piece that is only ``key=value`` continues the seat before it
    (but never an ``exec:`` seat, which takes no parameters). A comma inside quotes separates
    nothing, so an external command keeps its commas when the whole seat is quoted
    (``"exec:python bot.py 1,2",random``) or the argument is (``exec:python bot.py "1,2",random``).
    """
    seats: list[str] = []
    for piece in (p.strip() for p in _split_outside_quotes(text)):
        if len(piece) >= 2 and piece[0] == piece[-1] and piece[0] in "'\"":
            piece = piece[1:-1].strip()  # a whole seat in quotes: "exec:python bot.py 1,2"
        if "=" in piece and ":" not in piece and seats and not seats[-1].startswith(EXEC + ":"):
            seats[-1] += "," + piece
        else:
            seats.append(piece)
    return seats


def parse_seat(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=400,c=1.4"`` -> ("mcts", {"iterations": "400", "c": "1.4"})."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise PlayerSpecError(f"seat {spec!r}: parameters are written key=value")
        params[key.strip()] = value.strip()
    if not name:
        raise PlayerSpecError("an empty seat: name a player for every seat")
    return name, params


def load_player_class(name: str, available: Mapping[str, EntryPoint | type] | None = None) -> type[Player]:
    """The class an installed player name stands for, or PlayerSpecError listing what exists."""
    available = installed_players() if available is None else available
    entry = available.get(name)
    if entry is None:
        known = ", ".join(sorted(available)) or "none installed"
        raise PlayerSpecError(f"unknown player {name!r} (installed players: {known})")
    cls: object = entry
    if isinstance(entry, EntryPoint):
        try:
            cls = entry.load()
        except Exception as error:  # noqa: BLE001 - a broken plugin must not take the CLI down
            raise PlayerSpecError(f"player {name!r} cannot be loaded ({entry.value}): "
                                  f"{type(error).__name__}: {error}") from None
    if not (isinstance(cls, type) and issubclass(cls, Player)):
        raise PlayerSpecError(f"player {name!r} ({getattr(entry, 'value', cls)!r}) is not a Player subclass")
    return cls


def make_player(spec: str, seed: int | str | None, available: Mapping[str, EntryPoint | type] | None = None,
                rules: Rules | None = None, workdir: str | None = None) -> Player:
    """Build the player a seat specification names; PlayerSpecError says what exists or why not.

    With ``rules``, a player that does not support that ruleset is refused. A seat
    ``exec:COMMAND`` is an external program speaking the bot protocol (docs/external-bots.md),
    run in ``workdir`` (None: the current folder), where relative paths in COMMAND start.
    """
    if spec.strip().startswith(EXEC + ":"):
        return load_player_class(EXEC, available)(seed=seed, command=spec.strip()[len(EXEC) + 1:], cwd=workdir)
    name, params = parse_seat(spec)
    cls = load_player_class(name, available)
    if rules is not None and (why := cls.cannot_play(rules)) is not None:
        raise PlayerSpecError(f"player {name!r} does not play {rules.id} ({why})")
    try:
        return cls(seed=seed, **params)
    except PlayerSpecError:
        raise
    except Exception as error:  # noqa: BLE001 - a plugin's constructor failing is bad input, not a crash
        raise PlayerSpecError(f"player {name!r} failed to start: {type(error).__name__}: {error}") from None
