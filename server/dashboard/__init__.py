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

from .. import auth
from .pages import STATIC
from .routes import DASHBOARD_KEY, Dashboard

# Paths the dashboard guards itself (session, CSRF, admin), passed through the server's
# token middleware so that a missing or bad session gets a login page rather than JSON.
OPEN_PATHS = ("/", "/sources", "/search", "/card", "/graph", "/alias", "/alias/remove", "/login",
              "/logout", "/rebuild", "/ui/", "/static/")


def setup(app: web.Application, state: Any) -> Dashboard:
    dash = Dashboard(app, state)
    app[DASHBOARD_KEY] = dash
    _insert_before_auth(app, dash.html_refusals)
    r = app.router
    r.add_get("/", dash.root)
    r.add_get("/login", dash.login_form)
    r.add_post("/login", dash.login)
    r.add_post("/logout", dash.logout)
    r.add_get("/{page:sources|search|card|graph|alias}", dash.page, name="dashboard-page")
    r.add_get("/ui/bundle", dash.bundle_facts)
    r.add_get("/ui/dictionary", dash.dictionary_facts)
    r.add_get("/ui/platform", dash.platform_card)
    r.add_get("/ui/card", dash.object_card)
    r.add_post("/alias", dash.save_alias)
    r.add_post("/alias/remove", dash.remove_alias)
    r.add_post("/rebuild", dash.rebuild)
    r.add_static("/static/", STATIC, name="dashboard-static", append_version=False)
    auth.register_session_validator(app, dash.validate_for_api)
    for path in OPEN_PATHS:     # pages that guard themselves (login redirect, CSRF, admin session)
        auth.register_open_path(app, path)
    return dash


def _insert_before_auth(app: web.Application, middleware: Any) -> None:
    """Run ``middleware`` around the server's token middleware (so it sees its refusals)."""
    names = [getattr(m, "__name__", "") for m in app.middlewares]
    at = names.index("auth_middleware") if "auth_middleware" in names else len(names)
    app.middlewares.insert(at, middleware)


__all__ = ["setup", "Dashboard", "OPEN_PATHS"]
