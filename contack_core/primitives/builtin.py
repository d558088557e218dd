"""The built-in primitives, and the registry a loader starts from: them plus every primitive
installed under the entry-point group ``contack.ludemes``."""

from __future__ import annotations

from importlib.metadata import entry_points

from contack_core.primitives.board import TriangularLattice
from contack_core.primitives.components import TriangleTiles
from contack_core.primitives.endings import AllPassed, Condition, NoActionLeft, NoLegalCell, TurnLimit, ZoneEmptied
from contack_core.primitives.match import FixedHands
from contack_core.primitives.pieces import (
    CornerTiles,
    LastSideStanding,
    MovePiece,
    OneSideLeft,
    PiecesLeft,
    SquareGrid,
    StartPositions,
    TwoPieceTie,
)
from contack_core.primitives.placement import ContactPlacement
from contack_core.primitives.registry import ENTRY_POINT_GROUP, Primitive, Registry
from contack_core.primitives.scoring import CollectFromOthers, Counter
from contack_core.primitives.setup import DealTiles, DealToZones, LowestTileOpens, OpenFromZone, ShuffleZone
from contack_core.primitives.turn import DiscardTile, DrawTile, HouseActionRule, PassTurn, PlayTile
from contack_core.primitives.turn_order import AnotherTurn, NextSeat, Reverse, SkipNext
from contack_core.primitives.zones import Hand, Pile

BUILTIN: tuple[type[Primitive], ...] = (
    TriangleTiles, TriangularLattice, Pile, Hand, ShuffleZone, DealTiles, DealToZones, LowestTileOpens,
    OpenFromZone, ContactPlacement, PlayTile, DrawTile, DiscardTile, PassTurn, HouseActionRule, ZoneEmptied, AllPassed,
    NoLegalCell, NoActionLeft, Condition, TurnLimit, Counter, CollectFromOthers, FixedHands,
    CornerTiles, SquareGrid, StartPositions, MovePiece, OneSideLeft, TwoPieceTie, PiecesLeft, LastSideStanding,
    AnotherTurn, SkipNext, Reverse, NextSeat,
)


def default_registry() -> Registry:
    """The built-in primitives plus those installed under ``contack.ludemes``."""
    registry = Registry()
    for cls in BUILTIN:
        registry.add(cls, checked=False)  # checked by tests/test_slots.py
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        registry.add(entry.load())
    return registry
