"""The built-in rule primitives, one module per ruleset slot (see :mod:`.registry`)."""

from contack_core.primitives.board import TriangularLattice
from contack_core.primitives.components import TriangleTiles
from contack_core.primitives.endings import AllPassed, NoLegalCell, ZoneEmptied
from contack_core.primitives.match import FixedHands
from contack_core.primitives.placement import ContactPlacement
from contack_core.primitives.registry import Primitive
from contack_core.primitives.scoring import Counter
from contack_core.primitives.setup import DealTiles, LowestTileOpens, ShuffleZone
from contack_core.primitives.turn import DrawTile, PassTurn, PlayTile
from contack_core.primitives.zones import Hand, Pile

BUILTIN: tuple[type[Primitive], ...] = (
    TriangleTiles, TriangularLattice, Pile, Hand, ShuffleZone, DealTiles, LowestTileOpens,
    ContactPlacement, PlayTile, DrawTile, PassTurn, ZoneEmptied, AllPassed, NoLegalCell,
    Counter, FixedHands,
)
