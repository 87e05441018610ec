"""Pages made on the server: login, messages (refusals, errors, results) and page shells.

Every value put into HTML goes through ``esc``; the data pages themselves are static shells
whose scripts fill the DOM with ``textContent`` (static/app.js).
"""
from __future__ import annotations

import html
from pathlib import Path

STATIC = Path(__file__).parent / "static"
NAV = (("/sources", "Источники"), ("/search", "Поиск"), ("/card", "Карточка"),
       ("/graph", "Связи"), ("/alias", "Словарь"))


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def header(active: str, role: str | None, csrf: str | None) -> str:
    links = "".join(
        f'<a href="{href}"{" class=active" if href == active else ""}>{esc(label)}</a>'
        for href, label in NAV)
    if role:
        who = "администратор" if role == "admin" else "чтение"
        account = (f'<form method="post" action="/logout" class="logout">'
                   f'<input type="hidden" name="csrf" value="{esc(csrf or "")}">'
                   f'<span class="role role-{esc(role)}">{esc(who)}</span>'
                   f'<button type="submit">Выйти</button></form>')
    else:
        account = '<a class="login-link" href="/login">Войти</a>'
    return (f'<header class="top"><a class="brand" href="/sources">v8atlas</a>'
            f'<nav>{links}</nav><div class="account">{account}</div></header>')


def document(title: str, body: str, *, active: str = "", role: str | None = None,
             csrf: str | None = None, head: str = "") -> str:
    return ("<!doctype html><html lang=ru><head><meta charset=utf-8>"
            '<meta name=viewport content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)} — v8atlas</title>"
            '<link rel=stylesheet href="/static/style.css">'
            f"{head}</head><body>{header(active, role, csrf)}<main>{body}</main></body></html>")


def message_page(title: str, text: str, *, kind: str = "error", links: list[tuple[str, str]] = (),
                 role: str | None = None, csrf: str | None = None, detail: str = "") -> str:
    actions = "".join(f'<a class=button href="{esc(h)}">{esc(label)}</a>' for h, label in links)
    pre = (f"<details class=log-wrap><summary>Вывод компилятора</summary><pre class=log>{esc(detail)}</pre>"
           f"</details>") if detail else ""
    return document(title, f'<section class="message {esc(kind)}"><h1>{esc(title)}</h1>'
                           f"<p>{esc(text)}</p>{pre}<p class=actions>{actions}</p></section>",
                    role=role, csrf=csrf)


def login_page(next_url: str, notice: str = "", error: str = "", admin_only: bool = False) -> str:
    note = f'<p class="notice">{esc(notice)}</p>' if notice else ""
    err = f'<p class="error-text" role=alert>{esc(error)}</p>' if error else ""
    which = ("Токен администратора (ADMIN_TOKEN)" if admin_only
             else "Токен (API_TOKEN для чтения или ADMIN_TOKEN для правки словаря)")
    return document("Вход", f"""
<section class="login">
  <h1>Вход в v8atlas</h1>
  {note}{err}
  <form method="post" action="/login" autocomplete="off">
    <label for="token">{esc(which)}</label>
    <input id="token" name="token" type="password" required autofocus>
    <input type="hidden" name="next" value="{esc(next_url)}">
    <button type="submit" class="primary">Войти</button>
  </form>
  <p class="hint">Токен не сохраняется в странице и адресе: сервер выдаёт подписанную cookie
  сессии (HttpOnly, SameSite=Strict), которая истекает через несколько часов.</p>
</section>""")


def shell(page: str, *, role: str | None, csrf: str, admin_enabled: bool) -> str:
    """A static page shell with the session facts the script needs (no token, no data)."""
    body = (STATIC / f"{page}.html").read_text(encoding="utf-8")
    active = f"/{page}"
    meta = (f'<meta name="v8-csrf" content="{esc(csrf)}">'
            f'<meta name="v8-role" content="{esc(role or "")}">'
            f'<meta name="v8-admin-enabled" content="{"1" if admin_enabled else ""}">')
    title = {"sources": "Источники", "search": "Поиск", "card": "Карточка", "graph": "Связи",
             "alias": "Словарь"}[page]
    scripts = ('<script src="/static/vendor/cytoscape.min.js"></script>' if page == "graph" else "")
    scripts += '<script src="/static/app.js"></script>'
    scripts += '<script src="/static/cardview.js"></script>' if page == "card" else ""
    scripts += f'<script src="/static/{page}.js"></script>'
    return document(title, body + scripts, active=active, role=role, csrf=csrf, head=meta)
