"""Dashboard routes: page shells, login/logout, bundle facts, alias writes, recompile + reload."""
from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import web

from v8atlas.formats import Bundle
from .. import auth, tools
from ..auth import error_response
from ..state import ServerState
from ..throttle import client_of
from . import aliases, facts, pages
from .rebuild import RebuildUnavailable, plan_sources, run_compile
from .sessions import COOKIE_NAME, Session, SessionCodec, SessionInvalid, derive_secret, env_secret

log = logging.getLogger("v8atlas.dashboard")

PAGES = ("sources", "search", "card", "graph", "alias")
MAX_FORM_BYTES = 64 * 1024
DASHBOARD_KEY = web.AppKey("v8atlas_dashboard", object)


class Dashboard:
    def __init__(self, app: web.Application, state: ServerState) -> None:
        self.app = app
        self.state = state
        self.api_token, self.admin_token = auth.configured_tokens(app)
        self.codec = SessionCodec(derive_secret(self.api_token, self.admin_token, env_secret()))
        self.rebuild_lock = asyncio.Lock()
        self.last_rebuild: dict[str, Any] | None = None

    # -- who is asking -------------------------------------------------------------------
    @property
    def reads_open(self) -> bool:
        return not self.api_token       # as the server's middleware: no API_TOKEN, open reads

    def session_of(self, request: web.Request) -> Session | None:
        """The valid session, None without a cookie; SessionInvalid for a bad one."""
        cookie = request.cookies.get(COOKIE_NAME)
        if not cookie:
            return None
        session = self.codec.verify(cookie)
        if session.is_admin and not self.admin_token:
            raise SessionInvalid("the admin token is no longer configured", "admin_gone")
        return session

    def validate_for_api(self, request: web.Request) -> str | None:
        """Hook for the server's token middleware: a session grants its role to /api reads.

        Anything but GET/HEAD also needs the session's CSRF token in X-CSRF-Token and a
        same-origin request, so a cookie alone can never make a cross-site write.
        """
        try:
            session = self.session_of(request)
        except SessionInvalid:
            return None
        if session is None:
            return None
        if request.method not in ("GET", "HEAD"):
            if not same_origin(request) or not self.codec.csrf_ok(session, request.headers.get("X-CSRF-Token")):
                return None
        return session.role

    # -- responses -----------------------------------------------------------------------
    def to_login(self, request: web.Request, notice: str = "") -> web.Response:
        """Redirect to the login form; ``notice`` is a code of LOGIN_NOTICES (never free text
        in the URL, so a crafted link cannot put its own words on this server's login page)."""
        target = request.path_qs if request.method == "GET" else "/sources"
        location = f"/login?next={quote(target, safe='')}"
        if notice:
            location += f"&reason={quote(notice, safe='')}"
        resp = redirect(location)
        resp.del_cookie(COOKIE_NAME, path="/")
        return resp

    def html(self, body: str, status: int = 200) -> web.Response:
        resp = web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
        resp.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'")
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "same-origin"
        resp.headers["Cache-Control"] = "no-store"
        return resp

    def refuse(self, request: web.Request, title: str, text: str, status: int,
               session: Session | None = None, links: list[tuple[str, str]] | None = None) -> web.Response:
        return self.html(pages.message_page(
            title, text, links=(links or []) + [("/sources", "К источникам")],
            role=session.role if session else None,
            csrf=self.codec.csrf_token(session) if session else None), status)

    async def reader(self, request: web.Request) -> Session | None | web.Response:
        """The session for a read page, or the response that replaces the page."""
        try:
            session = self.session_of(request)
        except SessionInvalid as e:
            return self.to_login(request, e.code)
        if session is None and not self.reads_open:
            return self.to_login(request)
        await self.state.serving()   # the bundle's start-up check, if still running
        return session

    # -- pages ---------------------------------------------------------------------------
    @web.middleware
    async def html_refusals(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The server's middleware refuses a foreign Origin or Host with JSON; on a dashboard
        page a person gets a page saying so instead."""
        response = await handler(request)
        if (response.status in (401, 403, 421) and response.content_type == "application/json"
                and _is_page_path(request.path)):
            try:
                code = json.loads(response.text or "{}").get("error", {}).get("code", "")
            except (ValueError, AttributeError):
                code = ""
            text = {
                "bad_origin": "Запрос пришёл с другого сайта (Origin не совпадает с этим сервером). "
                              "Изменения принимаются только с форм самого v8atlas.",
                "bad_host": "Сервер не отвечает под этим именем хоста (Host). Откройте панель по адресу, "
                            "на котором он запущен, или добавьте имя в V8ATLAS_ALLOWED_HOSTS.",
            }.get(code, "Нужен вход: откройте страницу входа.")
            return self.html(pages.message_page("Запрос отклонён", text,
                                                links=[("/login", "Вход"), ("/sources", "К источникам")]),
                             response.status)
        return response

    async def page(self, request: web.Request) -> web.StreamResponse:
        who = await self.reader(request)
        if isinstance(who, web.StreamResponse):
            return who
        name = request.match_info.get("page") or "sources"
        if name not in PAGES:
            raise web.HTTPNotFound()
        csrf = self.codec.csrf_token(who) if who else ""
        return self.html(pages.shell(name, role=who.role if who else None, csrf=csrf,
                                     admin_enabled=bool(self.admin_token)))

    async def root(self, request: web.Request) -> web.StreamResponse:
        return redirect("/sources")

    async def login_form(self, request: web.Request) -> web.Response:
        notice = LOGIN_NOTICES.get(request.query.get("reason", ""), "")
        return self.html(pages.login_page(_safe_next(request.query.get("next")), notice=notice,
                                          admin_only=bool(self.admin_token) and not self.api_token))

    async def login(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            return self.refuse(request, "Запрос отклонён",
                               "Вход принимается только с формы этого сервера (другой Origin).", 403)
        throttle = auth.config(self.app).throttle     # the same budget as wrong API tokens
        client = client_of(request)
        if wait := throttle.retry_after(client):
            resp = self.html(pages.login_page(_safe_next(request.query.get("next")), error=(
                f"Слишком много неудачных попыток входа с этого адреса; повторите через {wait} с.")),
                429)
            resp.headers["Retry-After"] = str(wait)
            return resp
        form = await _form(request)
        token = form.get("token", "")
        next_url = _safe_next(form.get("next"))
        role = None
        if self.admin_token and _token_eq(token, self.admin_token):
            role = "admin"
        elif self.api_token and _token_eq(token, self.api_token):
            role = "read"
        elif self.reads_open:
            return self.html(pages.login_page(next_url, error=(
                "На этом сервере токены не заданы: чтение открыто, правка словаря выключена "
                "(задайте ADMIN_TOKEN при запуске сервера).")), 400)
        if role is None:
            throttle.failed(client)
            await asyncio.sleep(0.2)  # slows guessing a little; comparison is constant-time anyway
            return self.html(pages.login_page(next_url, error="Неверный токен."), 401)
        _, cookie = self.codec.issue(role)
        resp = redirect(next_url)
        resp.set_cookie(COOKIE_NAME, cookie, httponly=True, samesite="Strict", path="/",
                        max_age=self.codec.ttl_s, secure=request.secure)
        return resp

    async def logout(self, request: web.Request) -> web.StreamResponse:
        try:
            session = self.session_of(request)
        except SessionInvalid:
            session = None
        if session is not None:
            self.codec.revoke(session)      # the cookie dies here, not only in this browser
        resp = redirect("/login")
        resp.del_cookie(COOKIE_NAME, path="/")
        return resp

    # -- data the API does not carry: bundle facts and the compile report ---------------
    async def _data_reader(self, request: web.Request) -> tuple[Session | None, web.Response | None]:
        """For the pages' JSON endpoints: the session, or the 401 that replaces the answer."""
        who = await self.reader(request)
        if isinstance(who, web.StreamResponse):
            return None, error_response(401, "unauthorized", "log in first")
        return who, None

    async def bundle_facts(self, request: web.Request) -> web.Response:
        who, refused = await self._data_reader(request)
        if refused is not None:
            return refused
        bundle = self._bundle()
        if bundle is None:
            return web.json_response({"outcome": "unavailable", "error": {
                "code": "no_bundle", "message": "no bundle is loaded"}}, status=503)
        body = facts.bundle_facts(bundle)
        body["last_rebuild"] = self.last_rebuild
        return web.json_response(body, dumps=lambda o: json.dumps(o, ensure_ascii=False, default=str))

    async def dictionary_facts(self, request: web.Request) -> web.Response:
        who, refused = await self._data_reader(request)
        if refused is not None:
            return refused
        result: dict[str, Any] = {"admin_enabled": bool(self.admin_token),
                                  "is_admin": bool(who and who.is_admin)}
        try:
            plan = self._plan()
            # The server's own paths are shown to an admin only (readers see file names).
            shown = (lambda p: str(p)) if who and who.is_admin else (lambda p: Path(p).name)
            result.update(dictionary=shown(plan.dictionary), origin=plan.origin,
                          sources=[shown(p) for p in plan.sources], missing=plan.missing)
            data = aliases.read_dictionary(plan.dictionary)
            result["aliases"] = aliases.aliases_by_config(data)
        except (RebuildUnavailable, aliases.AliasError) as e:
            result["problem"] = str(e) if who and who.is_admin else (
                "словарь недоступен для правки с панели (подробности видит администратор)")
        bundle = self._bundle()
        result["configs"] = facts.configs(bundle) if bundle is not None else []
        return web.json_response(result, dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _served(self, request: web.Request) -> tuple[Any, web.Response | None]:
        """(snapshot, None) for a reader of data, else (None, the refusal to answer with)."""
        who, refused = await self._data_reader(request)
        if refused is not None:
            return None, refused
        snap = self.state.current
        if snap is None:
            return None, error_response(503, "no_bundle", "no bundle is loaded")
        return snap, None

    async def platform_card(self, request: web.Request) -> web.Response:
        snap, refused = await self._served(request)
        if refused is not None:
            return refused
        q = request.query
        name = q.get("name", "")[:500]
        if not name.strip():
            return error_response(400, "bad_argument", "name is required")
        # the tool's own version argument: exactly what an agent asking for that version gets
        args = {"name": name, "version": q.get("version"), "config": q.get("config"), "cursor": q.get("cursor")}
        result = tools.call(snap, "get_platform", {k: v for k, v in args.items() if v}, from_text=True)
        return web.json_response(result.as_json(), status=tools.status_of(result),
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def object_card(self, request: web.Request) -> web.Response:
        """The card behind get_object (the structured answer) for the card page, which renders
        it in Russian; the agent's own markdown stays one click away on that page."""
        snap, refused = await self._served(request)
        if refused is not None:
            return refused
        from ..tools.common import resolve_config
        from ..tools.metadata import METADATA, candidates
        from ..tools.result import ToolInputError
        q = request.query
        name = q.get("name", "")[:500].strip()
        if not name:
            return error_response(400, "bad_argument", "name is required")
        try:
            cfg = resolve_config(snap, q.get("config") or None, required_when_many=False)
        except ToolInputError as e:
            return error_response(400, e.code, e.message)
        docs = candidates(snap, name, (METADATA,), cfg.index if cfg else None)
        if len(docs) != 1:
            return web.json_response({"outcome": "ambiguous" if docs else "not_found"})
        card = snap.catalog.card(docs[0])
        return web.json_response({"outcome": "found", "title": snap.title(docs[0]), "card": card},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    def _plan(self):
        bundle = self._bundle()
        manifest = bundle.manifest if bundle is not None else {}
        return plan_sources(manifest, bundles_dir=self._bundles_dir())

    def _bundle(self) -> Bundle | None:
        return self.state.current.bundle if self.state.current is not None else None

    def _bundles_dir(self) -> Path | None:
        """Where a rebuild publishes; None when the server serves one bundle folder as is
        (a new bundle there would never be picked up)."""
        return self.state.bundles_dir if self.state.follows_pointer else None

    async def _reload(self) -> str:
        """Switch to the newest bundle, as POST /admin/reload does."""
        result = await self.state.reload(force=True)
        if result.outcome == "refused":
            raise RuntimeError(f"the new bundle was refused: {result.reason}")
        return f"{result.outcome}: {result.bundle}"

    # -- writes --------------------------------------------------------------------------
    async def admin(self, request: web.Request) -> tuple[Session, dict[str, str]] | web.Response:
        """Checks shared by every write: admin configured, same origin, admin session, CSRF."""
        if not self.admin_token:
            return self.refuse(request, "Правка выключена",
                               "На этом сервере не задан ADMIN_TOKEN: словарь можно менять только "
                               "в файле и командой v8atlas dict.", 404)
        if not same_origin(request):
            return self.refuse(request, "Запрос отклонён",
                               "Запрос пришёл с другого сайта (Origin не совпадает с этим сервером). "
                               "Изменения принимаются только с форм самого v8atlas.", 403)
        try:
            session = self.session_of(request)
        except SessionInvalid as e:
            return self.to_login(request, e.code)
        form = await _form(request)
        if session is None or not self.codec.csrf_ok(session, form.get("csrf")):
            return self.refuse(request, "Запрос отклонён",
                               "В форме нет действительного CSRF-токена этой сессии. Откройте форму "
                               "заново и отправьте её ещё раз.", 403, session)
        if not session.is_admin:
            return self.refuse(request, "Нужен токен администратора",
                               "Изменять словарь может только администратор: войдите с ADMIN_TOKEN.",
                               403, session, links=[("/login?next=%2Falias", "Войти как администратор")])
        return session, form

    async def save_alias(self, request: web.Request) -> web.Response:
        checked = await self.admin(request)
        if isinstance(checked, web.StreamResponse):
            return checked
        session, form = checked
        csrf = self.codec.csrf_token(session)
        try:
            phrase = aliases.clean_phrase(form.get("phrase", ""))
            targets = aliases.clean_targets(form.get("targets", ""))
            config = form.get("config", "").strip()
            plan = self._plan()
            aliases.set_alias(plan.dictionary, config, phrase, targets)
        except (aliases.AliasError, RebuildUnavailable) as e:
            return self.html(pages.message_page(
                "Синоним не сохранён", str(e), links=[(f"/alias?phrase={quote(form.get('phrase', '')[:200])}", "Назад к форме")],
                role=session.role, csrf=csrf), 400)
        log.info("dashboard: alias %r → %s (%s) written to %s", phrase, targets, config, plan.dictionary)
        if form.get("then") == "rebuild":
            return await self._rebuild(session, note=f"Синоним «{phrase}» записан в {plan.dictionary}.",
                                       phrase=phrase)
        return self.html(pages.document("Синоним сохранён", _saved_body(phrase, targets, config, plan, csrf),
                                        active="/alias", role=session.role, csrf=csrf))

    async def remove_alias(self, request: web.Request) -> web.Response:
        checked = await self.admin(request)
        if isinstance(checked, web.StreamResponse):
            return checked
        session, form = checked
        csrf = self.codec.csrf_token(session)
        phrase, config = form.get("phrase", ""), form.get("config", "")
        try:
            plan = self._plan()
            removed = aliases.remove_alias(plan.dictionary, config, phrase)
        except (aliases.AliasError, RebuildUnavailable) as e:
            return self.html(pages.message_page("Синоним не удалён", str(e), role=session.role, csrf=csrf), 400)
        if not removed:
            return self.html(pages.message_page(
                "Синоним не найден", f"В словаре нет синонима «{phrase}» ({_scope(config)}).",
                kind="info", links=[("/alias", "К словарю")], role=session.role, csrf=csrf), 404)
        log.info("dashboard: alias %r (%s) removed from %s", phrase, config, plan.dictionary)
        return self.html(pages.document("Синоним удалён", _removed_body(phrase, config, csrf),
                                        active="/alias", role=session.role, csrf=csrf))

    async def rebuild(self, request: web.Request) -> web.Response:
        checked = await self.admin(request)
        if isinstance(checked, web.StreamResponse):
            return checked
        return await self._rebuild(checked[0])

    async def _rebuild(self, session: Session, note: str = "", phrase: str = "") -> web.Response:
        csrf = self.codec.csrf_token(session)
        if self.rebuild_lock.locked():
            return self.html(pages.message_page(
                "Сборка уже идёт", "Другая пересборка ещё не закончилась; обновите страницу источников позже.",
                kind="info", links=[("/sources", "К источникам")], role=session.role, csrf=csrf), 409)
        async with self.rebuild_lock:
            try:
                plan = self._plan()
            except RebuildUnavailable as e:
                return self.html(pages.message_page("Пересборка невозможна", str(e),
                                                    role=session.role, csrf=csrf), 409)
            target = self._bundles_dir()
            if target is None:
                return self.html(pages.message_page(
                    "Пересборка невозможна",
                    "Сервер запущен на одной папке пакета, а не на папке пакетов: новый пакет он не "
                    "подхватит. Запустите его с --bundles <папка пакетов>.",
                    role=session.role, csrf=csrf), 409)
            result = await run_compile(plan, target)
            if result.ok:
                try:
                    result.reload_message = await self._reload() or "перезагружено"
                except Exception as e:  # the old bundle keeps serving; say why
                    result.ok = False
                    result.reload_message = f"перезагрузка не удалась: {e}"
            self.last_rebuild = {"ok": result.ok, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                 "seconds": round(result.seconds, 1), "bundle": result.bundle_path,
                                 "reload": result.reload_message}
        title = "Пересобрано и перезагружено" if result.ok else "Пересборка не удалась"
        text = (f"{note} " if note else "") + (
            f"Компиляция заняла {result.seconds:.1f} с; сервер отвечает по новому пакету "
            f"({Path(result.bundle_path or '').name})." if result.ok else
            f"Код выхода {result.exit_code}; {result.reload_message or 'сервер продолжает отвечать по прежнему пакету'}.")
        return self.html(pages.message_page(
            title, text, kind="ok" if result.ok else "error", detail=result.log,
            links=[(f"/search?q={quote(phrase)}" if phrase else "/search", "Проверить поиск"),
                   ("/alias", "К словарю"), ("/sources", "К источникам")],
            role=session.role, csrf=csrf), 200 if result.ok else 500)


def _saved_body(phrase: str, targets: list[str], config: str, plan: Any, csrf: str) -> str:
    esc = pages.esc
    items = "".join(f"<li><code>{esc(t)}</code></li>" for t in targets)
    return f"""<section class="message ok"><h1>Синоним сохранён</h1>
<p>«{esc(phrase)}» → (конфигурация {esc(config)})</p><ul>{items}</ul>
<p>Записано в <code>{esc(plan.dictionary)}</code>. Ответы изменятся после пересборки пакета и
перезагрузки сервера: <code>v8atlas compile …</code>, затем <code>POST /admin/reload</code>.</p>
<form method="post" action="/rebuild"><input type="hidden" name="csrf" value="{esc(csrf)}">
<button type="submit" class="primary">Пересобрать и перезагрузить сейчас</button></form>
<p class=actions><a class=button href="/alias">К словарю</a>
<a class=button href="/search?q={quote(phrase)}">Проверить поиск</a></p></section>"""


def _scope(config: str) -> str:
    return "все конфигурации" if config == aliases.GLOBAL else f"конфигурация {config}"


def _removed_body(phrase: str, config: str, csrf: str) -> str:
    esc = pages.esc
    return f"""<section class="message ok"><h1>Синоним удалён</h1>
<p>«{esc(phrase)}» ({esc(_scope(config))}) удалён из словаря. Поиск перестанет его учитывать
после пересборки пакета и перезагрузки сервера.</p>
<form method="post" action="/rebuild"><input type="hidden" name="csrf" value="{esc(csrf)}">
<button type="submit" class="primary">Пересобрать и перезагрузить сейчас</button></form>
<p class=actions><a class=button href="/alias">К словарю</a></p></section>"""


def redirect(location: str) -> web.Response:
    return web.Response(status=302, headers={"Location": location, "Cache-Control": "no-store"})


def same_origin(request: web.Request) -> bool:
    """A browser names the page that sent a POST in Origin (or Referer); it must be this host.

    With neither header (curl, scripts) the request is not a browser's cross-site one; the
    CSRF token and the SameSite cookie still guard it.
    """
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source is None:
        return True
    if source == "null":
        return False
    return urlsplit(source).netloc.lower() == (request.host or "").lower()


def _is_page_path(path: str) -> bool:
    return path in ("/", "/login", "/logout", "/alias", "/alias/remove", "/rebuild") or path.lstrip("/") in PAGES


def _token_eq(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


def _safe_next(value: str | None) -> str:
    """A path on this server to return to after login; anything else (another host, a
    scheme, "//", backslashes, whitespace or control characters browsers drop) → /sources."""
    if (not value or not value.startswith("/") or value.startswith("//") or "\\" in value
            or any(ord(ch) <= 0x20 or ord(ch) == 0x7F for ch in value)):
        return "/sources"
    if value.startswith(("/login", "/logout")):
        return "/sources"
    return value[:2000]


async def _form(request: web.Request) -> dict[str, str]:
    if request.content_length and request.content_length > MAX_FORM_BYTES:
        raise web.HTTPRequestEntityTooLarge(MAX_FORM_BYTES, request.content_length)
    try:
        data = await request.post()
    except ValueError:
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)}


LOGIN_NOTICES = {
    "expired": "Сессия недействительна: срок сессии истёк. Войдите снова.",
    "malformed": "Сессия недействительна: cookie сессии повреждена. Войдите снова.",
    "forged": "Сессия недействительна: cookie сессии выдана не этим сервером (или токены сменились). Войдите снова.",
    "admin_gone": "Сессия недействительна: токен администратора больше не задан. Войдите снова.",
    "closed": "Сессия закрыта: был выполнен выход. Войдите снова.",
    "login": "Войдите, чтобы читать данные.",
}
