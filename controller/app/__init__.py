"""Everything around the games, each part owning its own state: the `App`
(see `app.py`), its menus, offers, resume, the screen's views, the recorder
and the board settings.

`from damka.controller.app import App` is how the rest of the program and
the tests reach it; the names others use are re-exported here.
"""

from damka.controller.app.app import NAVIGATION, App
from damka.controller.app.errors import BadArgument, CommandRefused
from damka.controller.app.hooks import AppListener
from damka.controller.app.read_model import AppReadModel, GameFacts, OfferFacts
from damka.controller.app.screens import AppState
from damka.controller.app.recorder import CHECKPOINT_MS

__all__ = ["App", "AppListener", "AppReadModel", "GameFacts", "OfferFacts", "AppState", "BadArgument", "CHECKPOINT_MS", "CommandRefused", "NAVIGATION"]
