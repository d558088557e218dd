"""Turn control and match results as data (issue 28, kinds 1 and 6): the turn-order effects
(another turn, skip the next seat, reverse), who leads a hand, the order counters are worked
out in, "won the hand" and a match decided by an ordered list of measures.

Each example is shown to take effect in played games, against what Parker would have done in
the same position; the records of such games audit sound, and a record in which the turn passed
as Parker passes it is refused.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from helpers import play_recorded_game, read_lines, run_cli, write_lines

from contack_core import GameState, load_rules
from contack_core.engine.actions import Action, Draw, Pass, Play
from contack_core.engine.events import Played
from contack_core.engine.rules import Rules
from contack_core.records.audit import audit_record


@attrs.frozen
class Step:
    before: GameState
    action: Action
    after: GameState

    @property
    def seat(self) -> int:
        return self.before.current_seat()

    @property
    def ended_hand(self) -> bool:
        return len(self.after.hand_results) > len(self.before.hand_results) or self.after.is_over()


def traced(rules: Rules, seats: int, seed: int) -> Iterator[Step]:
    """Every decision of one random game (chance steps applied in between, not yielded)."""
    rng = random.Random(seed)
    state = GameState(rules, seats)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        before = state.clone()
        action = rng.choice(state.legal_actions())
        event = state.apply(action)
        yield Step(before, action, state.clone()), event  # type: ignore[misc]


def plays(rules: Rules, seats: int, seeds: range) -> Iterator[tuple[Step, object]]:
    for seed in seeds:
        yield from traced(rules, seats, seed)


def test_another_turn_after_a_play_of_20_or_more_and_only_then() -> None:
    rules = load_rules("play-again-on-20")
    again = normal = 0
    for step, event in plays(rules, 3, range(12)):
        if not isinstance(step.action, Play) or step.ended_hand or step.before.setup_step is not None:
            continue
        if event.points >= 20:
            assert step.after.current == step.seat, "a 20-point play must give its player another turn"
            again += 1
        else:
            assert step.after.current == (step.seat + 1) % 3
            normal += 1
    assert again >= 3 and normal > again


def _first_record_with_a_second_turn(rules: Rules, tmp_path: Path) -> tuple[Path, int]:
    """A seeded game of play-again-on-20 with a play of 20 or more followed by the same seat's
    action: its record, and the index of that play's line."""
    for seed in range(1, 40):
        path = tmp_path / f"game-{seed}.jsonl"
        play_recorded_game(3, seed, path, rules=rules)
        lines = read_lines(path)
        for index, line in enumerate(lines[:-1]):
            following = lines[index + 1]
            if line.get("event") == "play" and line.get("points", 0) >= 20 and following.get("seat") == line["seat"] \
                    and following.get("event") in ("play", "draw", "pass"):
                return path, index
    raise AssertionError("no seeded game had a second turn in a row")


def test_a_record_with_two_turns_in_a_row_audits_sound_and_one_where_the_turn_passed_is_refused(
        tmp_path: Path) -> None:
    rules = load_rules("play-again-on-20")
    path, index = _first_record_with_a_second_turn(rules, tmp_path)
    assert audit_record(path).valid
    lines = read_lines(path)
    seat = lines[index]["seat"]
    # The same game cut after the 20-point play, the next seat passing as under Parker: refused.
    passed_on = tmp_path / "passed-on.jsonl"
    write_lines(passed_on, [*lines[: index + 1], {"event": "pass", "seat": (seat + 1) % 3}])
    verdict = audit_record(passed_on)
    assert not verdict.valid and verdict.line == index + 2, (verdict.line, verdict.error)
    assert "turn" in verdict.error
    # Under parker-1939 the record of two turns in a row is refused at the second turn.
    under_parker = tmp_path / "under-parker.jsonl"
    header = {key: value for key, value in lines[0].items() if key != "ruleset_digest"}
    write_lines(under_parker, [{**header, "ruleset": "parker-1939", "options": {}}, *lines[1:index + 2]])
    verdict = audit_record(under_parker)
    assert not verdict.valid and verdict.line == index + 2, (verdict.line, verdict.error)


def test_a_counting_contact_skips_the_next_seat() -> None:
    rules = load_rules("skip-after-counting-contact")
    skipped = plain = 0
    for step, event in plays(rules, 4, range(6)):
        if not isinstance(step.action, Play) or step.ended_hand or step.before.setup_step is not None:
            continue
        counting = sum(c["counting"] for c in rules.placement.contacts_of(step.after.figure, event.cell))
        if counting:
            assert step.after.current == (step.seat + 2) % 4
            skipped += 1
        else:
            assert step.after.current == (step.seat + 1) % 4
            plain += 1
    assert skipped >= 10 and plain >= 3


def test_an_opportunity_play_reverses_the_direction_until_the_next_one_or_the_hand_end() -> None:
    rules = load_rules("reverse-on-opportunity")
    reversed_turns = 0
    direction, hand = 1, 0
    for step, event in plays(rules, 4, range(10)):
        if step.before.hand_number != hand:
            hand, direction = step.before.hand_number, 1
        if step.ended_hand or step.before.setup_step is not None or not isinstance(step.action, (Play, Pass)):
            continue
        if isinstance(step.action, Play) and event.opportunity:
            direction = -direction
        assert step.after.current == (step.seat + direction) % 4, (step.seat, direction)
        reversed_turns += direction == -1
    assert reversed_turns >= 10


def test_the_loser_of_the_last_hand_leads_the_next() -> None:
    rules, parker = load_rules("loser-leads-next-hand"), load_rules("parker-1939")
    differs = 0
    for seed in range(10):
        openers: dict[int, int] = {}
        for step, _ in traced(rules, 4, seed):
            if step.before.setup_step is not None:
                openers.setdefault(step.before.hand_number, step.seat)
                if step.before.hand_number > 1:
                    last = step.before.hand_results[-1].scores
                    assert last[step.seat] == min(last)
                    # What Parker's rule would choose in this very position.
                    differs += parker.setup[-1]._find_opener(step.before)[0] != step.seat
                else:
                    assert step.seat == parker.setup[-1]._find_opener(step.before)[0]
    assert differs >= 3


def _hands_won(state: GameState) -> list[int]:
    won = [0] * state.seat_count
    for result in state.hand_results:
        for seat, score in enumerate(result.scores):
            won[seat] += score == max(result.scores)
    return won


@pytest.mark.parametrize("example", ["match-by-hands-won", "hands-won-tally"])
def test_the_game_goes_to_the_most_hands_won_then_the_higher_score(example: str) -> None:
    rules = load_rules(example)
    not_the_highest_score = 0
    for seed in range(30):
        *_, (last, _) = traced(rules, 3, seed)
        state = last.after
        won = _hands_won(state)
        keys = [(won[seat], state.scores()[seat]) for seat in range(3)]
        assert state.winners() == [seat for seat in range(3) if keys[seat] == max(keys)]
        if "wins" in state.totals:
            assert state.totals["wins"] == won  # the tally counts each hand after its score is final
        not_the_highest_score += max(state.scores()) not in [state.scores()[s] for s in state.winners()]
    assert not_the_highest_score >= 1


def test_won_the_hand_read_before_the_score_is_final_is_refused_at_its_line(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "hands-won-tally.yaml").read_text()
    path = tmp_path / "tally.yaml"
    path.write_text(text.replace("    after: [score]\n", "").replace("id: hands-won-tally", "id: tally"))
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1
    assert f"{path}:15:5: at scoring.wins.on_hand_end: on_hand_end reads 'won_hand', and counter 'score' " \
           "changes at the end of a hand too: say which value it reads, after: [score]" in result.output
    # before: [score] is the other explicit reading: the tally then sees the hand before its penalty.
    path.write_text(text.replace("after: [score]", "before: [score]").replace("id: hands-won-tally", "id: tally"))
    assert run_cli("rulesets", "validate", path).exit_code == 0


def test_a_counter_reading_another_after_a_play_must_say_when(tmp_path: Path) -> None:
    path = tmp_path / "echo.yaml"
    path.write_text("format: contack-ruleset/1\nid: echo\ntitle: t\nextends: parker-1939\nscoring:\n"
                    "  echo:\n    primitive: counter\n    on_play: \"score // 10\"\n")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1 and f"{path}:8:5: at scoring.echo.on_play: on_play reads 'score'" in result.output
    path.write_text(path.read_text() + "    after: [score]\n")
    assert run_cli("rulesets", "validate", path).exit_code == 0
    # After the play, echo reads score's new total.
    rules = load_rules(str(path))
    for step, event in traced(rules, 2, 1):
        if isinstance(step.action, Play) and not step.ended_hand and event.points:
            seat = step.seat
            score = step.after.totals["score"][seat] + step.after.hand_gains["score"][seat]
            gained = step.after.hand_gains["echo"][seat] - step.before.hand_gains["echo"][seat]
            assert gained == score // 10
            break
    else:
        raise AssertionError("no scoring play")


@pytest.mark.parametrize(("order", "message"), [
    ("after: [nothing]", "at scoring.echo.after.0: after names no counter named 'nothing'"),
    ("after: [echo]", "at scoring.echo.after.0: after names itself"),
])
def test_a_bad_counter_order_is_refused_at_its_place(tmp_path: Path, order: str, message: str) -> None:
    path = tmp_path / "echo.yaml"
    path.write_text("format: contack-ruleset/1\nid: echo\ntitle: t\nextends: parker-1939\nscoring:\n"
                    f"  echo:\n    primitive: counter\n    {order}\n")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1 and message in result.output, result.output


def test_counters_going_round_in_a_circle_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "circle.yaml"
    path.write_text("format: contack-ruleset/1\nid: circle\ntitle: t\nextends: parker-1939\nscoring:\n"
                    "  a: {primitive: counter, after: [b]}\n  b: {primitive: counter, after: [a]}\n")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1 and "after and before go round in a circle among the counters a, b" in result.output


def test_a_turn_order_condition_with_an_unknown_name_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "again.yaml"
    path.write_text("format: contack-ruleset/1\nid: again\ntitle: t\nextends: parker-1939\nturn_order:\n"
                    "  again: {primitive: another-turn, after: [pass], when: \"points >= 20\"}\n")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1
    assert f"{path}:6:51: at turn_order.again.when: unknown name 'points'" in result.output


def test_turn_order_survives_a_clone_mid_hand() -> None:
    rules = load_rules("reverse-on-opportunity")
    for step, event in plays(rules, 4, range(4)):
        if isinstance(step.action, Play) and event.opportunity and not step.ended_hand:
            assert step.after.direction == -step.before.direction
            assert step.after.clone().direction == step.after.direction
            return
    raise AssertionError("no opportunity play")


def test_the_effects_are_documented_primitives() -> None:
    from contack_core.primitives.builtin import default_registry

    registry = default_registry()
    assert registry.names("turn_order") == ["another-turn", "next-seat", "reverse", "skip-next"]
    for name in registry.names("turn_order"):
        assert registry.get("turn_order", name).__doc__
    schema = json.loads((Path(__file__).resolve().parent.parent / "contack_core" / "schemas"
                         / "ruleset.schema.json").read_text())
    assert "turn_order" in schema["properties"]


#: The examples of this issue: each is kept by the score keeper and replayed like any ruleset.
NEW_EXAMPLES = ["play-again-on-20", "skip-after-counting-contact", "reverse-on-opportunity",
                "loser-leads-next-hand", "match-by-hands-won", "hands-won-tally", "reverse-when-stock-runs-out",
                "winner-dealt-a-tile-more", "lowest-score-plays-next"]


@pytest.mark.parametrize("example", NEW_EXAMPLES)
def test_the_keeper_keeps_a_game_of_the_example_line_for_line(example: str, tmp_path: Path) -> None:
    from keeping import entries_for, played_lines

    rules = load_rules(example)
    source = played_lines(rules, 4, seed=3)
    entries_for(rules, source, [f"player{s}" for s in range(4)], tmp_path, 3)  # asserts the very same record


@pytest.mark.parametrize("example", NEW_EXAMPLES)
def test_the_replay_follows_a_game_of_the_example_to_its_totals(example: str, tmp_path: Path) -> None:
    from contack_core.replay.timeline import build_timeline

    record = tmp_path / "game.jsonl"
    state = play_recorded_game(4, 5, record, rules=load_rules(example))
    timeline = build_timeline(record)
    assert timeline.fault is None and len(timeline.steps) == len(read_lines(record))
    assert list(timeline.steps[-1].scores) == state.scores()
    result = run_cli("replay", record, "--html", tmp_path / "game.html")
    assert result.exit_code == 0, result.output


def test_another_turn_after_a_capture_on_a_board_of_pieces(tmp_path: Path) -> None:
    """The effects follow a move as they follow a play: on Klauber's board a capture earns
    another move, and the record of such a game audits sound."""
    path = tmp_path / "capture-again.yaml"
    path.write_text("format: contack-ruleset/1\nid: capture-again\ntitle: t\nextends: klauber-1937\n"
                    "turn_order:\n  again: {primitive: another-turn, after: [move], when: \"captured >= 1\"}\n")
    rules = load_rules(str(path))
    again = 0
    for seed in range(30):
        for step, event in traced(rules, 2, seed):
            if step.ended_hand or not hasattr(event, "removed"):
                continue
            captured = len(event.removed) - (bool(event.removed) and event.removed[-1] == (event.path or
                                                                                              (event.origin,))[-1])
            assert (step.after.current == step.seat) == (captured >= 1), (seed, event)
            again += captured >= 1
        if again >= 2:
            break
    assert again >= 2
    record = tmp_path / "game.jsonl"
    play_recorded_game(2, 1, record, rules=rules)
    assert audit_record(record).valid


def test_the_narration_tells_an_effect_in_the_rulesets_own_words(tmp_path: Path) -> None:
    path = tmp_path / "otra-vez.yaml"
    path.write_text("format: contack-ruleset/1\nid: otra-vez\ntitle: t\nextends: spanish-edition\n"
                    "turn_order:\n  again: {primitive: another-turn, when: \"points >= 20\"}\n", encoding="utf-8")
    result = run_cli("play", path, "--seats", "random,random,random", "--seed", "4")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    told = [i for i, line in enumerate(lines) if line.endswith("juega otra vez")]
    assert told and all(int(lines[i - 1].split("-> ")[1].split()[0]) >= 20 for i in told), told
    assert "plays again" not in result.output


def test_hand_winner_is_a_formula_going_out_wins_the_hand(tmp_path: Path) -> None:
    path = tmp_path / "out-wins.yaml"
    path.write_text("format: contack-ruleset/1\nid: out-wins\ntitle: t\nextends: parker-1939\n"
                    "match:\n  hand_winner: \"went_out == 1\"\n  decided_by: [hands_won, score]\n", encoding="utf-8")
    rules = load_rules(str(path))
    for seed in range(6):
        *_, (last, _) = traced(rules, 3, seed)
        state = last.after
        won = [sum(result.went_out == seat for result in state.hand_results) for seat in range(3)]
        keys = [(won[seat], state.scores()[seat]) for seat in range(3)]
        assert state.winners() == [seat for seat in range(3) if keys[seat] == max(keys)]
    bad = tmp_path / "bad.yaml"
    bad.write_text(path.read_text().replace("went_out == 1", "went_first == 1").replace("out-wins", "bad"))
    result = run_cli("rulesets", "validate", bad)
    assert result.exit_code == 1 and f"{bad}:6:3: at match.hand_winner: unknown name 'went_first'" in result.output


# --------------------------------------------------------------------------- next follows the direction of play
def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


REVERSE_AND_PASS_PAYS = ("format: contack-ruleset/1\nid: reverse-pays\ntitle: t\nextends: reverse-on-opportunity\n"
                         "scoring:\n  score:\n    transfers:\n"
                         "      - {when: pass, amount: 5, from: self, to: next}\n")


def test_a_transfer_to_next_after_a_reversal_pays_the_seat_that_plays_next(tmp_path: Path) -> None:
    rules = load_rules(str(_write(tmp_path / "reverse-pays.yaml", REVERSE_AND_PASS_PAYS)))
    reversed_passes = forward_passes = 0
    for step, _ in plays(rules, 4, range(12)):
        if not isinstance(step.action, Pass) or step.ended_hand:
            continue
        gained = [after - before for after, before in zip(step.after.hand_gains["score"],
                                                          step.before.hand_gains["score"])]
        payee = step.after.current  # the seat that actually plays next
        assert payee == (step.seat + step.before.direction) % 4
        assert gained[payee] == 5 and gained[step.seat] == -5 and sum(map(abs, gained)) == 10, (gained, payee)
        reversed_passes += step.before.direction == -1
        forward_passes += step.before.direction == 1
    assert reversed_passes >= 3 and forward_passes >= 3


def test_a_record_paying_next_round_the_table_after_a_reversal_is_refused_at_its_hand_end(tmp_path: Path) -> None:
    rules = load_rules(str(_write(tmp_path / "reverse-pays.yaml", REVERSE_AND_PASS_PAYS)))
    for seed in range(1, 30):
        path = tmp_path / f"game-{seed}.jsonl"
        play_recorded_game(4, seed, path, rules=rules)
        assert audit_record(path).valid, audit_record(path).error
        lines = read_lines(path)
        # Scores as if each pass paid the seat after it round the table: they differ where a pass
        # came while the direction was reversed (the next seat to act is then the one before).
        shifted = [0] * 4
        for index, line in enumerate(lines):
            if line.get("event") == "hand_end":
                if any(shifted):
                    tampered = [*lines[:index], {**line, "scores": [s + d for s, d in zip(line["scores"], shifted)]}]
                    write_lines(path, tampered)
                    verdict = audit_record(path)
                    assert not verdict.valid and verdict.line == index + 1, (verdict.line, verdict.error)
                    return
                continue
            if line.get("event") != "pass":
                continue
            following = next(other for other in lines[index + 1:] if "seat" in other or other["event"] == "hand_end")
            actor = following.get("seat")
            if following["event"] in ("play", "draw", "pass") and actor != (line["seat"] + 1) % 4:
                shifted[actor] -= 5
                shifted[(line["seat"] + 1) % 4] += 5
    raise AssertionError("no seeded game had a pass while the direction was reversed")


# --------------------------------------------------------------------------- every player passes in turn
SKIP_AFTER_PASS = ("format: contack-ruleset/1\nid: pass-skips\ntitle: t\nextends: parker-1939\n"
                   "turn_order:\n  skip: {primitive: skip-next, after: [pass]}\n")
#: A seat may draw up to 7 tiles whenever it likes, and pass once it has drawn: passes in a row
#: then come from fewer seats than sit at the table while the hands still change.
DRAW_AT_WILL = ("turn:\n  draw: {when: \"hand_count < 7 and stock_count > 0\"}\n"
                "  pass: {when: \"not can_play or drawn >= 1\"}\n")


def test_all_passed_waits_for_every_seat_when_a_pass_skips_the_next(tmp_path: Path) -> None:
    rules = load_rules(str(_write(tmp_path / "pass-skips.yaml", SKIP_AFTER_PASS + DRAW_AT_WILL)))
    went_on = ended = 0
    for seed in range(40):
        passed: set[int] = set()
        unchanged: set[int] = set()
        for step, event in traced(rules, 4, seed):
            if step.before.setup_step is not None:
                continue
            if isinstance(step.action, Play):
                passed, unchanged = set(), set()
                continue
            if not isinstance(step.action, Pass):
                unchanged = set()
                continue
            again = step.seat in unchanged
            passed.add(step.seat)
            unchanged.add(step.seat)
            by_all_passed = step.ended_hand and step.after.hand_results[len(step.before.hand_results)].reason \
                == "all_passed"
            assert by_all_passed == (len(passed) == 4 or again), (seed, passed, again)
            ended += by_all_passed
            # Four passes in a row from fewer seats: Parker's count would have ended the hand here.
            went_on += step.after.passes >= 4 and not step.ended_hand
            if step.ended_hand:
                passed, unchanged = set(), set()
    assert ended >= 3 and went_on >= 3, (ended, went_on)


def test_another_turn_after_a_pass_ends_the_hand_when_the_seat_passes_again_unchanged(tmp_path: Path) -> None:
    rules = load_rules(str(_write(tmp_path / "pass-again.yaml", SKIP_AFTER_PASS.replace(
        "skip: {primitive: skip-next", "again: {primitive: another-turn"))))
    ended = earlier = 0
    for seed in range(20):
        for step, _ in traced(rules, 3, seed):
            if isinstance(step.action, Pass) and step.ended_hand:
                # The hand ends on a pass only when this seat passed just before with nothing drawn
                # since (another turn after every pass keeps the turn with it), never on three passes
                # of the same seat.
                assert step.before.passes >= 1 and step.before.drawn == 0 and step.before.current == step.seat
                ended += 1
                earlier += step.after.passes < 3  # three passes in a row would have ended it before
    assert ended >= 3 and earlier == ended
    record = tmp_path / "game.jsonl"
    play_recorded_game(3, 2, record, rules=rules)
    assert audit_record(record).valid


# --------------------------------------------------------------------------- effects after a draw
def test_drawing_the_last_tile_of_the_stock_reverses_the_direction_once_the_turn_ends() -> None:
    rules = load_rules("reverse-when-stock-runs-out")
    reversed_turns = stock_outs = 0
    for seed in range(10):
        direction, hand = 1, 0
        for step, _ in traced(rules, 4, seed):
            if step.before.hand_number != hand:
                hand, direction = step.before.hand_number, 1
            if step.before.setup_step is not None or step.ended_hand:
                continue
            if isinstance(step.action, Draw):
                if not step.after.zones["stock"]:
                    direction = -direction
                    stock_outs += 1
                assert step.after.current == step.seat and step.after.direction == direction  # the turn goes on
                continue
            assert step.after.current == (step.seat + direction) % 4, (seed, step.seat, direction)
            reversed_turns += direction == -1
    assert stock_outs >= 5 and reversed_turns >= 20


def test_a_record_of_a_stock_out_audits_sound_and_one_passing_round_the_table_is_refused(tmp_path: Path) -> None:
    rules = load_rules("reverse-when-stock-runs-out")
    stock = 36 - 4 * 5  # what is left of Parker's 36 tiles once four hands of 5 are dealt
    for seed in range(1, 30):
        path = tmp_path / f"game-{seed}.jsonl"
        play_recorded_game(4, seed, path, rules=rules)
        assert audit_record(path).valid
        lines = read_lines(path)
        drawn = 0
        for index, line in enumerate(lines):
            drawn = 0 if line.get("event") == "hand" else drawn + (line.get("event") == "draw")
            if line.get("event") != "draw" or drawn != stock:
                continue
            # The drawer's turn goes on; the first line by another seat must be by the seat before it.
            after = next(i for i in range(index + 1, len(lines)) if lines[i].get("seat") != line["seat"])
            if lines[after]["event"] not in ("play", "draw", "pass"):
                continue  # the hand ended with the drawer's turn
            assert lines[after]["seat"] == (line["seat"] - 1) % 4
            tampered = tmp_path / "round-the-table.jsonl"
            write_lines(tampered, [*lines[:after], {"event": "pass", "seat": (line["seat"] + 1) % 4}])
            verdict = audit_record(tampered)
            assert not verdict.valid and verdict.line == after + 1 and "turn" in verdict.error, verdict.error
            return
    raise AssertionError("no seeded game emptied the stock and went on")


def test_another_turn_after_a_draw_gives_a_further_turn_once_this_one_ends(tmp_path: Path) -> None:
    rules = load_rules(str(_write(tmp_path / "draw-again.yaml", (
        "format: contack-ruleset/1\nid: draw-again\ntitle: t\nextends: parker-1939\nturn_order:\n"
        "  again: {primitive: another-turn, after: [draw], when: \"drawn >= 2\"}\n"))))
    again = plain = 0
    for seed in range(10):
        drawn = 0
        for step, _ in traced(rules, 3, seed):
            if step.before.setup_step is not None:
                continue
            if isinstance(step.action, Draw):
                drawn += 1
                assert step.after.current == step.seat
                continue
            if not step.ended_hand:
                expected = step.seat if drawn >= 2 else (step.seat + 1) % 3
                assert step.after.current == expected, (seed, step.seat, drawn)
                again += drawn >= 2
                plain += drawn < 2
            drawn = 0
    assert again >= 5 and plain > again
    record = tmp_path / "game.jsonl"
    play_recorded_game(3, 3, record, rules=rules)
    assert audit_record(record).valid


# --------------------------------------------------------------------------- the set-up reads the hands before
def _dealt_by_hand(lines: list[dict]) -> dict[int, dict[int, int]]:
    """How many tiles each seat was dealt in each hand of a record."""
    dealt: dict[int, dict[int, int]] = {}
    hand = 0
    for line in lines:
        if line.get("event") == "hand":
            hand = line["number"]
        elif line.get("event") == "deal" and line.get("seat") is not None:
            dealt.setdefault(hand, {})[line["seat"]] = len(line["tiles"])
    return dealt


def test_the_last_hands_winner_is_dealt_a_tile_more(tmp_path: Path) -> None:
    rules = load_rules("winner-dealt-a-tile-more")
    more = 0
    for seed in range(6):
        path = tmp_path / f"game-{seed}.jsonl"
        state = play_recorded_game(3, seed, path, rules=rules)
        dealt = _dealt_by_hand(read_lines(path))
        results = state.hand_results
        assert dealt[1] == {0: 5, 1: 5, 2: 5}  # nobody won a hand before the first
        for number in range(2, len(results) + 1):
            last = results[number - 2].scores
            winners = {seat for seat in range(3) if last[seat] == max(last)}
            assert dealt[number] == {seat: 5 + (seat in winners) for seat in range(3)}, (seed, number, last)
            more += len(winners)
        assert audit_record(path).valid
    assert more >= 10


def test_a_record_dealing_the_winner_five_is_refused_at_its_deal(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_recorded_game(3, 2, path, rules=load_rules("winner-dealt-a-tile-more"))
    lines = read_lines(path)
    index = next(i for i, line in enumerate(lines) if line.get("event") == "deal" and len(line["tiles"]) == 6)
    seat = lines[index]["seat"]
    write_lines(path, [*lines[:index], {**lines[index], "tiles": lines[index]["tiles"][:5]}])
    verdict = audit_record(path)
    assert not verdict.valid and verdict.line == index + 1
    assert f"p{seat} is dealt 6 tiles this hand; 5 given" in verdict.error, verdict.error


@pytest.mark.parametrize(("count", "message"), [
    ('"hand_size - 6 + won_last_hand"', "count gives -1 for won_last_hand=0: a deal gives each seat a whole number "
                                        "of tiles from 0 to 1000 (MAX_TILES)"),
    ('"10 // (hand_number - 1)"', "fails for hand_number=1: integer division or modulo by zero"),
    ('"last_hand_score // 10"', "count gives -50 for last_hand_score=-500: a deal gives each seat a whole number "
                                "of tiles from 0 to 1000 (MAX_TILES)"),
    ('"turns // 10"', "count reads 'turns', whose values are not known before play: a deal's count may read "
                      "hand_number, hands_played, seats, hands_won, won_last_hand, went_out_last, last_hand_score, "
                      "score, highest_score, lowest_score and the options"),
    # The most a count gives (5 + 2 hands won before the third) is what the pile must hold for every seat.
    ('"hand_size + hands_won"', "set-up step 'deal' takes 49 tiles from stock for 7 seats where stock holds 36"),
])
def test_a_deal_count_is_checked_at_load_for_every_value_it_reads(tmp_path: Path, count: str, message: str) -> None:
    path = _write(tmp_path / "deal.yaml", "format: contack-ruleset/1\nid: deal\ntitle: t\nextends: parker-1939\n"
                  f"setup:\n  deal:\n    count: {count}\n")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1, result.output
    where = "parker-1939.yaml:12:19: at players.max: " if "takes" in message else f"{path}:7:5: at setup.deal.count: "
    assert where in result.output and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


# --------------------------------------------------------------------------- a seat chosen by measures
def _lowest_in_order(state: GameState, seat: int, among_others: bool = False) -> int:
    """The seat with the lowest running score, ties to the first met going round from the seat
    after ``seat`` (``seat`` itself last), worked out here from the totals alone."""
    count = state.seat_count
    running = [state.totals["score"][s] + state.hand_gains["score"][s] for s in range(count)]
    order = [(seat + k) % count for k in range(1, count + 1)]
    if among_others:
        order.remove(seat)
    return min(order, key=lambda other: (running[other], order.index(other)))


@pytest.mark.parametrize("among_others", [False, True])
def test_the_lowest_score_plays_after_each_play(among_others: bool, tmp_path: Path) -> None:
    rules = load_rules("lowest-score-plays-next") if not among_others else load_rules(str(_write(
        tmp_path / "others.yaml", "format: contack-ruleset/1\nid: others\ntitle: t\nextends: lowest-score-plays-next\n"
        "turn_order:\n  catch-up:\n    among: others\n")))
    chosen = again = 0
    for step, _ in plays(rules, 3, range(8)):
        if step.ended_hand or step.before.setup_step is not None:
            continue
        if isinstance(step.action, Play):
            expected = _lowest_in_order(step.after, step.seat, among_others)
            assert step.after.current == expected, (step.seat, step.after.current, expected)
            chosen += expected != (step.seat + 1) % 3
            again += expected == step.seat
        elif isinstance(step.action, Pass):
            assert step.after.current == (step.seat + 1) % 3  # after a pass the turn passes round
    assert chosen >= 20
    assert (again == 0) if among_others else (again >= 5)


def test_a_record_where_the_turn_passed_round_instead_of_to_the_lowest_score_is_refused(tmp_path: Path) -> None:
    rules = load_rules("lowest-score-plays-next")
    path = tmp_path / "game.jsonl"
    play_recorded_game(3, 3, path, rules=rules)
    assert audit_record(path).valid
    lines = read_lines(path)
    for index, line in enumerate(lines[:-1]):
        following = lines[index + 1]
        if line.get("event") == "play" and following.get("event") in ("play", "draw", "pass") \
                and following["seat"] != (line["seat"] + 1) % 3 and index > 6:
            write_lines(path, [*lines[: index + 1], {"event": "pass", "seat": (line["seat"] + 1) % 3}])
            verdict = audit_record(path)
            assert not verdict.valid and verdict.line == index + 2 and "turn" in verdict.error, verdict.error
            return
    raise AssertionError("no play gave the turn past the next seat")


def test_a_next_seat_measure_with_an_unknown_name_is_refused_at_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "bad.yaml", "format: contack-ruleset/1\nid: bad\ntitle: t\nextends: parker-1939\n"
                  "turn_order:\n  pick:\n    primitive: next-seat\n    seat:\n      - lowest: scores\n")
    result = run_cli("rulesets", "validate", path)
    assert result.exit_code == 1
    assert f"{path}:9:9: at turn_order.pick.seat.0.lowest: unknown name 'scores'" in result.output, result.output


# --------------------------------------------------------------------------- a direction kept across hands
def test_a_direction_kept_for_the_game_carries_into_the_next_hand_and_goes_on_the_wire() -> None:
    """reverse-for-the-game: the direction is reversed once for every opportunity play of the game
    so far (reverse-on-opportunity: of the hand so far, each hand starting clockwise); the seat
    after a hand's opener follows it; the contack-bot/1 position tells it."""
    from players.protocol import position_json

    for ruleset, kept in (("reverse-for-the-game", True), ("reverse-on-opportunity", False)):
        rules = load_rules(ruleset)
        started_reversed = 0
        for seed in range(8):
            rng = random.Random(seed)
            state = GameState(rules, 3)
            flips, hand = 0, 1
            while not state.is_over():
                if state.hand_number != hand:
                    hand, flips = state.hand_number, flips if kept else 0
                    started_reversed += state.direction == -1
                assert state.direction == (-1) ** flips
                if state.is_chance_node():
                    state.apply(state.sample_chance(rng))
                    continue
                if state.setup_step is not None:  # the opening tile: the turn then goes the hand's way
                    opener = state.current
                    state.apply(state.legal_actions()[0])
                    assert state.current == (opener + state.direction) % 3
                    assert position_json(state)["direction"] == state.direction
                    continue
                event = state.apply(rng.choice(state.legal_actions()))
                flips += isinstance(event, Played) and event.opportunity
        assert (started_reversed > 0) == kept
