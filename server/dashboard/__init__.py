"""The web dashboard: what the agent sees, for a person, served by the server process.

``setup(app, state)`` adds the pages at ``/`` (``/sources``, ``/search``, ``/card``, ``/graph``,
``/alias``), login/logout, two JSON helpers under ``/ui/`` and the static files at
``/static/``. Data pages are static shells whose script calls the JSON API (``/api/<tool>``)
with the session cookie; the server's token middleware accepts that cookie through the
validator registered here. See docs/dashboard.md.
"""
from __future__ import annotations

from typing import Any

from aiohttp import web

from . import hooks
from .pages import STATIC
from .routes import DASHBOARD_KEY, Dashboard

# Paths the dashboard answers itself (its own session checks), for the server's middleware.
PUBLIC_PREFIXES = ("/static/", "/login")
DASHBOARD_PATHS = ("/", "/sources", "/search", "/card", "/graph", "/alias", "/login", "/logout",
                   "/rebuild", "/ui/bundle", "/ui/dictionary", "/ui/platform")


def setup(app: web.Application, state: Any) -> Dashboard:
    dash = Dashboard(app, state)
    app[DASHBOARD_KEY] = dash
    r = app.router
    r.add_get("/", dash.root)
    r.add_get("/login", dash.login_form)
    r.add_post("/login", dash.login)
    r.add_post("/logout", dash.logout)
    r.add_get("/{page:sources|search|card|graph|alias}", dash.page, name="dashboard-page")
    r.add_get("/ui/bundle", dash.bundle_facts)
    r.add_get("/ui/dictionary", dash.dictionary_facts)
    r.add_get("/ui/platform", dash.platform_card)
    r.add_post("/alias", dash.save_alias)
    r.add_post("/rebuild", dash.rebuild)
    r.add_static("/static/", STATIC, name="dashboard-static", append_version=False)
    dash.validator_registered = hooks.register_session_validator(app, dash.validate_for_api)
    return dash


__all__ = ["setup", "Dashboard", "DASHBOARD_PATHS", "PUBLIC_PREFIXES"]
