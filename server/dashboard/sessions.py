"""Dashboard sessions: a login turns a token into a signed, expiring cookie.

The cookie holds no token: only the role it grants ("read" or "admin"), a random session
id and an expiry, signed with HMAC-SHA256. Nothing is stored server-side, so replicas that
share the tokens (or ``V8ATLAS_SESSION_SECRET``) accept each other's sessions; rotating a
token invalidates every session signed with the old one.

The CSRF token of a session is derived from its id with the same key, so forms carry it
without the server remembering anything.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass

COOKIE_NAME = "v8atlas_session"
DEFAULT_TTL_S = 8 * 3600
ROLES = ("read", "admin")


@dataclass(frozen=True)
class Session:
    role: str          # "read" or "admin"
    sid: str           # random id; the CSRF token is derived from it
    expires: int       # unix seconds

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


class SessionInvalid(Exception):
    """A cookie that is not ours, was altered, or has expired; ``reason`` is shown to the person."""

    def __init__(self, reason: str, code: str = "forged") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code            # "expired" | "closed" | "malformed" | "forged" | "admin_gone"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def derive_secret(api_token: str | None, admin_token: str | None, explicit: str | None = None) -> bytes:
    """The signing key: an explicit secret, else one derived from the configured tokens.

    Derived from the tokens, replicas agree on it with no extra setting, and changing a
    token logs everybody out. With no token at all (an open server) a per-process random
    key is enough: the session then only carries the CSRF token.
    """
    if explicit:
        return hashlib.sha256(b"v8atlas-session-explicit\0" + explicit.encode("utf-8")).digest()
    if api_token or admin_token:
        material = f"{api_token or ''}\0{admin_token or ''}".encode("utf-8")
        return hmac.new(material, b"v8atlas dashboard session v1", hashlib.sha256).digest()
    return secrets.token_bytes(32)


class RevokedSessions:
    """Ids of sessions logged out before their expiry, kept until then. Cookies are stateless,
    so this is the one piece of server memory they need; it is per process (a replica behind
    the same balancer still accepts the cookie) and bounded: past ``limit`` entries the ones
    nearest their expiry are dropped first."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._until: dict[str, int] = {}

    def add(self, sid: str, expires: int) -> None:
        now = int(time.time())
        if len(self._until) >= self.limit:
            self._until = {k: v for k, v in self._until.items() if v > now}
            while len(self._until) >= self.limit:
                del self._until[min(self._until, key=self._until.__getitem__)]
        self._until[sid] = expires

    def holds(self, sid: str, now: float) -> bool:
        until = self._until.get(sid)
        return until is not None and until > now


class SessionCodec:
    """Signs and verifies session cookies; makes and checks CSRF tokens."""

    def __init__(self, secret: bytes, ttl_s: int = DEFAULT_TTL_S) -> None:
        self._key = secret
        self.ttl_s = ttl_s
        self.revoked = RevokedSessions()

    def _sign(self, payload: bytes) -> str:
        return _b64(hmac.new(self._key, b"cookie\0" + payload, hashlib.sha256).digest())

    def issue(self, role: str, now: float | None = None) -> tuple[Session, str]:
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        now = time.time() if now is None else now
        session = Session(role, secrets.token_urlsafe(16), int(now) + self.ttl_s)
        payload = json.dumps({"r": session.role, "s": session.sid, "e": session.expires},
                             separators=(",", ":")).encode("utf-8")
        return session, f"{_b64(payload)}.{self._sign(payload)}"

    def verify(self, cookie: str, now: float | None = None) -> Session:
        now = time.time() if now is None else now
        body, _, sig = cookie.partition(".")
        # A cookie is ASCII (base64 and a dot); anything else is not ours, and hmac refuses to
        # compare non-ASCII str (TypeError), so it is turned away before any comparison.
        if not body or not sig or len(cookie) > 512 or not cookie.isascii():
            raise SessionInvalid("the session cookie is malformed", "malformed")
        try:
            payload = _unb64(body)
        except (ValueError, TypeError):
            raise SessionInvalid("the session cookie is malformed", "malformed") from None
        if not hmac.compare_digest(self._sign(payload), sig):
            raise SessionInvalid("the session cookie was not issued by this server (or the tokens changed)")
        try:
            data = json.loads(payload)
            session = Session(str(data["r"]), str(data["s"]), int(data["e"]))
        except (ValueError, KeyError, TypeError):
            raise SessionInvalid("the session cookie is malformed", "malformed") from None
        if session.role not in ROLES:
            raise SessionInvalid("the session cookie names an unknown role", "malformed")
        if session.expires <= now:
            raise SessionInvalid("the session has expired", "expired")
        if self.revoked.holds(session.sid, now):
            raise SessionInvalid("the session was closed (logged out)", "closed")
        return session

    def revoke(self, session: Session) -> None:
        """Logged out: this cookie is refused from now on (by this process, until it expires)."""
        self.revoked.add(session.sid, session.expires)

    def csrf_token(self, session: Session) -> str:
        return _b64(hmac.new(self._key, b"csrf\0" + session.sid.encode("ascii"), hashlib.sha256).digest())

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf_token(session).encode("ascii"),
                                                   (token or "").encode("utf-8", "replace"))


def env_secret() -> str | None:
    return os.environ.get("V8ATLAS_SESSION_SECRET") or None
