"""What the App shows: the LEDs' frame and the screen's view, read from its parts.

Pure reads of the App's public state (the game, the screen, the offers, the
listeners' additions): nothing here changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller.app import resume as resume_mod
from damka.controller.words import wording
from damka.controller.app.screens import AppState
from damka.controller.app.view_builder import game_view, with_notice
from damka.controller.app.views import GameView, MenuView, View
from damka.hardware.interfaces import LedFrame, Role

if TYPE_CHECKING:
    from damka.controller.app.app import App
    from damka.controller.session import Session


def app_frame(app: App) -> LedFrame:
    """The LEDs: the game's frame (the last move only when the settings want it), or the resume guide."""
    session = app.session
    if app.state is AppState.GAME and session is not None:
        if not app.board_settings.last_move:
            return {square: role for square, role in session.frame.items() if role is not Role.LAST_MOVE}
        return session.frame
    if app.state is AppState.LESSON:
        return app.teaching.frame
    offer = app.games.resume_offer
    if app.state is AppState.RESUME and offer is not None:
        return resume_mod.guidance_frame(offer, app.occupied)
    return {}


def app_view(app: App, core: GameView | None = None) -> View:
    """The screen: the menu over everything, else the result, a menu, or the game with its lines.
    `core`: the game's own view, when the caller has built it already (`core_view`)."""
    overlay = app.overlay
    if overlay is not None:
        return MenuView(overlay, subtitle=_lines(title(app), app.offer_line(), app.banner))
    if app.state is AppState.RESULT and app.result_view is not None:
        return app.result_view
    if app.state is AppState.LESSON:
        return app.teaching.view()
    session = app.session
    if app.state in (AppState.MENU, AppState.RESUME) or session is None:
        return MenuView(app.menu, subtitle=_lines(app.menu.description, app.banner), warning=app.notice)
    view = core if core is not None else core_view(app, session)
    view = with_notice(with_notice(view, app.offer_line() or app.remote_line(), alert=True), app.banner,
                       alert=False)
    view = with_notice(view, app.notice, alert=False)  # wrapped in the screen's message box
    writes = app.writes
    view = with_notice(view, writes.notice(app.now) if writes is not None else "",
                       alert=writes is not None and writes.failing)
    shown: View = view
    for listener in app.listeners:
        shown = listener.view(shown)
    return shown


def core_view(app: App, session: Session) -> GameView:
    """The game as the screen words it, before the App's notices and the features' lines."""
    return game_view(session, app.clock, app.game_players, title(app), app.now)


def title(app: App) -> str:
    """The game's title: the variant, the mode, the external engine playing or coaching."""
    session = app.session
    if session is None:
        return ""
    helpers = (session.opponent, session.coach)
    engine = next((h.engine_name for h in helpers if h is not None and h.engine_name), "")
    return wording.game_title(session.variant.title, app.setup.mode) + (f" - {engine}" if engine else "")


def _lines(*parts: str) -> str:
    return "  ".join(part for part in parts if part)
