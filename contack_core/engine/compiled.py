"""The game state compiled for one ruleset: :class:`GameState` with its two hottest methods,
``legal_actions`` and ``apply``, written out as one function each for that ruleset's rules.

Every decision of a playout lists the legal actions and applies one. The readable
:class:`GameState` does each through a chain of small steps that ask the rules what to do (which
turn rule offers what, what follows the event, who plays next, whether the seat is stuck); the
compiled class spells the ruleset's answers out at load: the turn program's statements inside
``legal_actions``, and in ``apply`` the play rule's statements, then what follows a play or a pass
(the counters' scoring, the hand endings), then the turn passing on, each as the ruleset's
primitives offer it as source (the trees of its formulas checked by the expression whitelist, never
its text), and a chance outcome the state drew itself is applied at once. Whatever the compiled
methods do not spell out (the rest of the set-up, a replayed action, a rule that offers no
statements, an action that is refused) they hand to the readable methods, which also word every
refusal. Tests hold the two to each other at every step of random games of every
shipped ruleset and example (``tests/test_compiled_state.py``); docs/performance.md says what it saves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contack_core.engine.actions import PASS, Discard, Draw, IllegalAction, Move, Pass, Play
from contack_core.engine.events import Drew, Moved, Passed, Played, make_passed
from contack_core.engine.state import GameState
from contack_core.language.programs import Program, build_function, consequences_body

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules


def _refused(state: GameState, action: Any) -> IllegalAction:
    """The error the readable ``apply`` raises for an action its rule refuses."""
    return IllegalAction(state.rules.explain_forbidden(state, action))


#: What every compiled method names: the readable methods it hands the rest to, the action kinds.
_COMMON: dict[str, Any] = {
    "_readable_legal": GameState.legal_actions, "_readable_apply": GameState.apply, "_refused": _refused,
    "_Play": Play, "_Draw": Draw, "_Discard": Discard, "_Pass": Pass, "_PASS": PASS, "_Drew": Drew,
    "_make_passed": make_passed, "_type": type, "_Move": Move, "_Moved": Moved, "_IllegalAction": IllegalAction,
}


def compiled_state_class(rules: Rules) -> type[GameState]:
    """The class of ``rules``'s states: :class:`GameState`, its ``legal_actions`` and ``apply``
    compiled for these rules."""
    legal_actions = _compile_legal_actions(rules)
    apply = _compile_apply(rules)
    legal_actions.__doc__ = GameState.legal_actions.__doc__
    apply.__doc__ = GameState.apply.__doc__
    return type("GameState", (GameState,), {
        "__slots__": (), "__module__": __name__, "__qualname__": f"GameState[{rules.id}]",
        "__doc__": f"A game of {rules.id}: {GameState.__doc__}", "legal_actions": legal_actions, "apply": apply})


def _compile_legal_actions(rules: Rules) -> Any:
    """``legal_actions`` with the turn program in its own frame: a decision's list is worked out
    without a call, and the list kept (as the readable method keeps it) for ``apply``."""
    body = rules.turn_body
    lines = [
        "_legal = self._legal",
        "if _legal is not None:",
        "    return _legal",
        "if self.setup_step is not None or self.over:",
        "    return _readable_legal(self)",
        "_state = self",
        *body.lines,
    ]
    if not rules.endings_when_stuck:  # nothing to do and no ending for it: the readable method words the fault
        lines += ["if not _actions:", "    return _readable_legal(self)"]
    lines += ["self._legal = _actions", "return _actions"]
    return build_function("legal_actions", ["self"], lines, [body], _COMMON)


def _following_seat(rules: Rules) -> list[str]:
    """Statements giving the turn to the next seat after a play, as the readable ``apply`` does."""
    if rules.turn_order:
        return ["self.current = self._ordered_next_seat()"]
    return ["_following = self.current + 1",
            "self.current = _following if _following < self.seat_count else 0"]


def _after(rules: Rules, kind: type, fired: list[str]) -> tuple[list[str], list[Program]]:
    """What follows an event of ``kind`` (the counters' effects, the endings), inlined: an ending
    that fires runs ``fired`` after finishing the hand with its key."""
    effects, endings = rules.consequence_sources[kind]
    body = consequences_body(effects, endings, lambda key: [f"self._finish_hand({key!r})", *fired])
    return ([], []) if body is None else (list(body.lines), [body])


def _turn_over(rules: Rules, after: list[str]) -> list[str]:
    """The readable ``_turn_over`` spelt out after a pass or a move: what follows the event
    (``after``, which returns when it ends the hand), then the turn to the next seat."""
    return ["_state = self", *after,
            "self.current = self._next_seat()", "self.drawn = 0", "self._legal = None",
            *(["self._check_stuck()"] if rules.endings_when_stuck else []),
            "return _event"]


def _in_play(condition: str, body: list[str]) -> list[str]:
    """``body`` run for an action meeting ``condition`` once the set-up is done and while the game
    goes on (the readable ``apply`` takes every other case)."""
    return [f"if {condition} and self.setup_step is None and not self.over:", *("    " + line for line in body)]


def _compile_apply(rules: Rules) -> Any:
    """``apply`` with a play, a draw, a pass and a move each done in its own frame where the rules
    allow it: the play and draw rules' statements, what follows the event and the turn passing on,
    spelt out."""
    lines = ["_kind = _type(_action)"]
    programs: list[Program] = []
    bindings: dict[str, Any] = dict(_COMMON)
    play_rules = [rule for rule in rules.turn if rule.action_type is Play]
    statements = play_rules[0].apply_source("raise _refused(self, _action)") if len(play_rules) == 1 else None
    if statements is not None:
        bindings["_play_rule"] = play_rules[0]
        programs.append(Program((), statements.bindings))
        after, parts = _after(rules, Played, ["return _event"])
        programs += parts
        listed = ["if self._legal is not None:",
                  "    if self._allowed.get(_Play) is not _play_rule:",
                  "        return _readable_apply(self, _action)"]
        if rules.unconditional_play is not play_rules[0]:  # a play's rule is known only from the list
            listed += ["else:", "    self.legal_actions()",
                       "    if self._allowed.get(_Play) is not _play_rule:",
                       "        return _readable_apply(self, _action)"]
        stuck = []
        if rules.endings_when_stuck:
            bindings["_turn_program"] = rules.turn_program
            stuck = ["if not self.chance:",
                     "    _next = _turn_program(self)",
                     "    if not _next:",
                     f"        self._finish_hand({rules.endings_when_stuck[0].key!r})",
                     "    else:",
                     "        self._legal = _next"]
        play = [*listed, "_state = self", *statements.code.splitlines(),
                "self.turns += 1", "self.passes = 0", *after, *_following_seat(rules),
                "self.drawn = 0", "self._legal = None", *stuck, "return _event"]
        lines += _in_play("_kind is _Play", play)
    if any(rule.action_type in (Draw, Discard) for rule in rules.turn):
        ending = ["ended = _after_event(self, _event) if (_after_event := _consequences[_type(_event)]) else None",
                  "if ended is not None:", "    self._finish_hand(ended)"]
        if rules.endings_when_stuck:
            ending += ["else:", "    self._check_stuck()"]
        bindings["_consequences"] = rules.consequences
        draw = ["if self._legal is None:", "    self.legal_actions()",
                "_rule = self._allowed.get(_kind)",
                "if _rule is None:", "    raise _refused(self, _action)"]
        draws = [rule for rule in rules.turn if rule.action_type is Draw]
        inline = draws[0].apply_source("raise _refused(self, _action)") if len(draws) == 1 else None
        if inline is None:
            draw.append("_event = _rule.apply(self, _action)")
        else:  # the draw rule's statements; a discard's rule, or one the table agreed to, is called
            bindings["_draw_rule"] = draws[0]
            programs.append(Program((), inline.bindings))
            draw += ["if _rule is _draw_rule:", "    _state = self", *("    " + line for line in inline.code.splitlines()),
                     "else:", "    _event = _rule.apply(self, _action)"]
        draw += ["if _event is None:", "    raise _refused(self, _action)",
                "self.turns += 1",
                "if _kind is _Draw:", "    self.drawn += 1",
                "self.passed_unchanged = 0", "self._legal = None", *ending, "return _event"]
        lines += _in_play("(_kind is _Draw or _kind is _Discard)", draw)
    if any(rule.action_type is Pass for rule in rules.turn) and not rules.turn_order:
        after, parts = _after(rules, Passed, ["return _event"])
        programs += parts
        passing = ["if self._legal is None:", "    self.legal_actions()",
                   "if _Pass not in self._allowed:", "    raise _refused(self, _PASS)",
                   "self.turns += 1",
                   "_event = _make_passed(self.current)",
                   "self.passes += 1",
                   *_turn_over(rules, after)]
        lines += _in_play("_kind is _Pass", passing)
    if any(rule.action_type is Move for rule in rules.turn):
        after, parts = _after(rules, Moved, ["return _event"])
        programs += parts
        move = ["if self._legal is None:", "    self.legal_actions()",
                "_rule = self._allowed.get(_Move)",
                "if _rule is None:", "    raise _refused(self, _action)",
                "_event = _rule.apply(self, _action)",
                "if _event is None:", "    raise _refused(self, _action)",
                "self.turns += 1", "self.passes = 0",
                "if _type(_event) is not _Moved:", "    self._turn_over(_event)", "    return _event",
                *_turn_over(rules, after)]
        lines += _in_play("_kind is _Move", move)
    # A chance outcome this state's own RNG drew at this very position (sample_chance keeps it until
    # the next action): applied unchecked, as the readable apply does, without its other tests.
    lines += ["if _action is self._sampled:", "    self._sampled = None",
              "    _event = self.setup_step.apply_sampled(self, _action)",
              "    if _event is None:", "        raise _IllegalAction(self.setup_step.explain(self))",
              "    self._legal = None",
              *(["    if self.setup_step is None:", "        self._check_stuck()"] if rules.endings_when_stuck else []),
              "    return _event",
              "return _readable_apply(self, _action)"]
    return build_function("apply", ["self", "_action"], lines, programs, bindings)
