"""Zone primitives: the places tiles can be besides the figure, and who sees what in each.

Every zone states its ``visible`` (see :mod:`contack_core.engine.information`): which tiles a
seat sees, as opposed to only their number. The figure (or a board of pieces) is always seen
by every seat. A bot searches only states resampled from what its seat has seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from contack_core.engine.information import RELATIONS, parse_visible
from contack_core.primitives.registry import BuildContext, Primitive, PrimitiveError

if TYPE_CHECKING:
    from contack_core.engine.rules import Rules


class Zone(Primitive):
    """Base of zone primitives (the contract: :class:`contack_core.engine.slots.Zone`)."""

    slot = "zones"
    kind: ClassVar[str]
    per_seat: ClassVar[bool]
    face_up: bool = False
    #: Who sees its tiles, a word or ``{whole: RELATION, top: RELATION}``; set when built.
    visibility: object

    def initial_tiles(self, rules: Rules) -> range:
        """The tiles it holds when a hand begins: none unless a zone says."""
        return range(0)


class Pile(Zone):
    """A pile shared by the table: the stock (``starts_with: all-tiles``, face down), a
    discard pile or a stack (``starts_with: nothing``, ``face: up``).

    A face-down pile's order is set by a shuffle and stays hidden; draws take from the
    top, and a record typed in at a real table names each drawn tile instead (the pile is
    then just the unseen tiles). A face-up pile is seen by everyone, and only its top
    tile may be played.

    ``visible`` says what every seat sees of it: ``none`` or ``nobody`` (only how many tiles it
    holds; a face-down pile's only and default value), ``all`` (every tile in order: a face-up pile's
    default, as a discard pile whose every tile was seen when laid) or ``top`` (the top tile;
    those beneath are hidden, as in a stack dealt face up where each covers the one below).
    """

    name = "pile"
    kind = "pile"
    per_seat = False
    schema = {
        "type": "object",
        "properties": {"starts_with": {"enum": ["all-tiles", "nothing"]}, "face": {"enum": ["down", "up"]},
                       "visible": {"enum": ["none", "nobody", "top", "all"]}},
        "additionalProperties": False,
    }

    def build(self, context: BuildContext) -> None:
        self.starts_full = self.params.get("starts_with", "all-tiles") == "all-tiles"
        self.face_up = self.params.get("face", "down") == "up"
        self.visibility: str = self.params.get("visible", "all" if self.face_up else "none")
        if not self.face_up and self.visibility not in ("none", "nobody"):
            raise PrimitiveError(f"a face-down pile is seen by nobody: visible is none, not {self.visibility}",
                                 "visible")

    def initial_tiles(self, rules: Rules) -> range:
        return range(len(rules.tiles)) if self.starts_full else range(0)


class Hand(Zone):
    """Each seat's own tiles, in front of him. ``visible`` is a relation between the hand's owner
    and the seat looking (see :mod:`contack_core.engine.information`): ``all`` (the default: the
    triangle-tile games play open hands, face up on the table), ``owner`` (each seat sees only its
    own hand; of the others' only how many tiles they hold), ``partners`` (the owner and its
    partners), or ``{whole: RELATION, top: RELATION}`` (the whole hand to some, its last tile to
    more). A seat plays from its hand, so its owner always sees it whole: ``nobody`` and ``top``
    (a pile's values) are refused here."""

    name = "hand"
    kind = "hand"
    per_seat = True
    face_up = True
    # A word or {whole: RELATION, top: RELATION}: checked in build, which says what is allowed.
    schema = {"type": "object",
              "properties": {"visible": {"type": ["string", "object"]}},
              "additionalProperties": False}

    def build(self, context: BuildContext) -> None:
        self.visibility: object = self.params.get("visible", "all")
        try:
            whole, _ = parse_visible(self.visibility)
        except ValueError as error:
            raise PrimitiveError(str(error), "visible") from None
        if RELATIONS.index(whole) < RELATIONS.index("owner"):
            raise PrimitiveError(f"a seat plays from its hand, so its owner sees it whole: visible {self.visibility} "
                                 f"hides it from its owner (use owner, partners, all, or {{whole: owner, top: all}})",
                                 "visible")


