"""The accounts over HTTP: register, log in and out, change the password, delete; and who a
request's login cookie names (the websocket asks at its upgrade). docs/accounts.md.

Every state-changing request is a JSON POST from this server's own pages (server/net/
origin.py). A login is a random token in an HttpOnly, SameSite=Lax cookie (Secure over TLS);
Redis keeps only its hash. Failed logins are counted per account and per address in Redis (so
every process of a cluster sees them): past the limit the answer is `throttled`, with when to
try again. Password hashing (argon2id, 0.1 to 0.2 s and 19 MiB each) runs in threads within a
budget (server/accounts/hashing.py), so a burst of logins neither blocks the event loop nor
takes the memory, and the owner of an account goes first.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from server.accounts.barred import Barred
from server.accounts.errors import AccountError
from server.accounts.hashing import Hashing
from server.accounts.passwords import hash_password, needs_rehash, verify_password
from server.accounts.policy import check_password, check_username, username_key
from server.accounts.store import DELETED, LOGIN_TTL_S, AccountStore, login_hash
from server.edge.body import BodyRefused, json_object
from server.edge.origin import is_secure, refuse_foreign
from server.edge.proxy import Network, client_address, via_proxy
from server.history.store import HistoryStore
from server.lobby.room import new_id

COOKIE = "nv_login"
# A device: a random token this browser got at a login, kept a year. Where an account logged
# in from lately (this device, or the address) is trusted: strangers' failures on the account
# do not lock its owner out there (issue 37: 100 wrong passwords from 10 addresses locked the
# owner out for 15 minutes, from their own address).
DEVICE = "nv_device"
DEVICE_TTL_S = 365 * 24 * 3600.0
TRUST_TTL_S = 30 * 24 * 3600.0
FAIL_WINDOW_S = 15 * 60.0
# Failed logins per window (docs/accounts.md, "Throttling"): one address may try an account 10
# times; all addresses together 100 times (so a stranger's 10 tries do not lock its owner out,
# while a guesser spread over many addresses is still bounded); one address 50 times over all
# accounts (a club behind one address).
ACCOUNT_ADDRESS_FAILS = 10
ACCOUNT_FAILS = 100
ADDRESS_FAILS = 50
BODY_MAX = 4096  # a body has BODY_SECONDS to arrive (server/edge/body.py)


Handler = Callable[["Accounts", web.Request], Awaitable[web.Response]]
# logins of an account ended: (uid, only this login's hash, or all but this one's), so that
# their open websockets end too (server/accounts/logouts.py)
Ended = Callable[[str, str | None, str | None], None]


def _no_sockets(uid: str, only: str | None, keep: str | None) -> None:
    """Without websockets (the HTTP API alone), nothing more ends with a login."""


def answered(handler: Handler) -> Handler:
    """A handler whose refusals are JSON bodies with their code (docs/accounts.md)."""

    @functools.wraps(handler)
    async def wrapped(self: Accounts, request: web.Request) -> web.Response:
        try:
            return await handler(self, request)
        except AccountError as e:
            headers = {}
            if "retry_after" in e.params:
                headers["Retry-After"] = str(e.params["retry_after"])
            return web.json_response(e.body(), status=e.status, headers=headers)

    return wrapped


def _taken() -> AccountError:
    """A new refusal each time: one kept in a local of the handler that raised it made a
    cycle (its traceback holds that frame), the request with it, for the collector to free."""
    return AccountError("name_taken", "That username is taken.", 409)


@dataclass(frozen=True)
class LoggedIn:
    """The account a request's cookie names."""

    uid: str
    name: str
    token: str


class Accounts:
    """The account handlers of one process."""

    def __init__(
        self,
        store: AccountStore,
        history: HistoryStore,
        origins: frozenset[str],
        trusted: tuple[Network, ...],
        ended: Ended = _no_sockets,
        register_per_address: int = 10,
        logins_per_address: int = 60,
    ):
        self.ended = ended
        self.register_per_address = register_per_address  # accounts made per address per window
        # logins per address per window, right or wrong: a club's evening behind one address,
        # each player once or twice, but not a hash and a stored login without end
        self.logins_per_address = logins_per_address
        self.store = store
        self.history = history
        self.origins = origins
        self.trusted = trusted
        self.hashing = Hashing()  # the budget of argon2 work, owners first
        self.barred = Barred()  # addresses past their registrations, until their window ends

    # -- who is asking -------------------------------------------------------------
    def routes(self) -> list[web.RouteDef]:
        """The account API (docs/accounts.md)."""
        return [
            web.post("/api/account/register", self.register),
            web.post("/api/account/login", self.login),
            web.post("/api/account/logout", self.logout),
            web.post("/api/account/logout-all", self.logout_all),
            web.post("/api/account/password", self.change_password),
            web.post("/api/account/delete", self.delete),
            web.get("/api/account", self.me),
        ]

    async def viewer(self, request: web.Request) -> str | None:
        """The uid of the request's live login, or None (what the read-only pages need)."""
        who = await self.logged_in(request)
        return None if who is None else who.uid

    async def logged_in(self, request: web.Request) -> LoggedIn | None:
        """The live account of the request's login cookie, or None (a guest)."""
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 100:
            return None
        uid = await self.store.login(token)
        if uid is None:
            return None
        account = await self.store.account(uid)
        if account is None or account.get("deleted"):
            return None
        return LoggedIn(uid, account["name"], token)

    def address(self, request: web.Request) -> str:
        """The client's address (behind a trusted proxy: the forwarded one)."""
        return client_address(request.remote or "", request.headers, self.trusted)

    async def _body(self, request: web.Request) -> dict[str, Any]:
        refuse_foreign(request, self.origins)
        try:
            return await json_object(request, BODY_MAX)
        except BodyRefused as e:
            raise AccountError("bad_request", e.message, e.status) from None

    async def _hash(self, password: str, owner: bool) -> str:
        return await self.hashing.run(owner, hash_password, password)

    async def _verify(
        self, stored: str | None, password: str, owner: bool, counted: list[str]
    ) -> bool:
        """Does the password match? Refused `busy`, the attempt counted is forgiven: it
        tried nothing."""
        try:
            return await self.hashing.run(owner, verify_password, stored, password)
        except AccountError:
            await self.store.forgive(*counted)
            raise

    def _answer(
        self, request: web.Request, data: dict[str, Any], token: str | None
    ) -> web.Response:
        response = web.json_response(data)
        if token is not None:
            secure = is_secure(request, via_proxy(request.remote or "", self.trusted))
            response.set_cookie(
                COOKIE, token, max_age=int(LOGIN_TTL_S), path="/", httponly=True,
                samesite="Lax", secure=secure,
            )  # fmt: skip
            response.set_cookie(
                DEVICE, self._device(request), max_age=int(DEVICE_TTL_S), path="/",
                httponly=True, samesite="Lax", secure=secure,
            )  # fmt: skip
        return response

    @staticmethod
    def _device(request: web.Request) -> str:
        """This browser's device token: the one it has, or a new one (set at the login)."""
        token = request.cookies.get(DEVICE, "")
        if not 20 <= len(token) <= 64 or not token.replace("-", "").replace("_", "").isalnum():
            token = request[DEVICE] = request.get(DEVICE) or secrets.token_urlsafe(24)
        return token

    def _marks(self, request: web.Request) -> list[str]:
        """Where a login comes from: its address, and its device (as the trust keys name
        them; the device by its token's hash)."""
        marks = ["ip:" + self.address(request)]
        token = request.cookies.get(DEVICE, "")
        if 20 <= len(token) <= 64:
            marks.append("dev:" + hashlib.sha256(token.encode()).hexdigest())
        return marks

    async def _trust(self, request: web.Request, uid: str) -> None:
        """A login succeeded: its address and device are trusted for TRUST_TTL_S."""
        marks = ["ip:" + self.address(request)]
        marks.append("dev:" + hashlib.sha256(self._device(request).encode()).hexdigest())
        await self.store.trust(uid, marks, TRUST_TTL_S)

    async def _start_login(self, uid: str) -> str:
        token = secrets.token_urlsafe(32)
        await self.store.add_login(token, uid)
        return token

    # -- the handlers ----------------------------------------------------------------
    @answered
    async def register(self, request: web.Request) -> web.Response:
        """POST {username, password}: a new account, logged in."""
        body = await self._body(request)
        name = check_username(body.get("username"))
        password = check_password(body.get("password"), name)
        addr = "reg:" + self.address(request)
        now = time.monotonic()
        if left := self.barred.left(addr, now):
            raise self._throttled(left)  # known over its limit: Redis not asked again
        (made,) = await self.store.attempt(FAIL_WINDOW_S, addr)
        if made > self.register_per_address:
            retry = await self.store.retry_after(addr)
            self.barred.bar(addr, now + retry)
            raise self._throttled(retry)
        if await self.store.uid_of(username_key(name)) is not None:
            # a taken name costs no hash, and counts as an account made (issue 37: never
            # counted, a flood of taken names hashed without limit)
            raise _taken()
        uid = new_id("u")
        pw_hash = await self._hash(password, False)
        if not await self.store.create(uid, name, username_key(name), pw_hash):
            raise _taken()  # taken meanwhile
        await self._trust(request, uid)
        return self._answer(request, {"username": name}, await self._start_login(uid))

    @answered
    async def login(self, request: web.Request) -> web.Response:
        """POST {username, password}: logged in, or `bad_login` without saying which was
        wrong; `throttled` past the failed-login limits."""
        body = await self._body(request)
        name, password = body.get("username"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 64:
            raise AccountError("bad_login", "Wrong username or password.", 401)
        key = username_key(name)
        await self._login_budget(request)
        uid = await self.store.uid_of(key)
        trusted = uid is not None and await self.store.trusted(uid, self._marks(request))
        counted = await self._attempt(request, key, True, uid is not None, trusted)
        account = None if uid is None else await self.store.account(uid)
        stored = None if account is None else account.get("hash")
        right = await self._verify(stored, password, trusted, counted)
        if not right or uid is None or account is None:
            raise AccountError("bad_login", "Wrong username or password.", 401)
        await self.store.forgive(*counted)
        await self._trust(request, uid)
        if stored is not None and needs_rehash(stored):
            await self.store.set_hash(uid, await self._hash(password, True))
        return self._answer(request, {"username": account["name"]}, await self._start_login(uid))

    @answered
    async def logout(self, request: web.Request) -> web.Response:
        """POST: this login ends (the cookie is cleared), and the websockets opened with it."""
        await self._body(request)
        token = request.cookies.get(COOKIE)
        if token and len(token) <= 100:
            uid = await self.store.end_login(token)
            if uid is not None:
                self.ended(uid, login_hash(token), None)
        response = web.json_response({"ok": True})
        response.del_cookie(COOKIE, path="/")
        return response

    @answered
    async def logout_all(self, request: web.Request) -> web.Response:
        """POST: every login of the account ends, this one too, and every websocket of it."""
        await self._body(request)
        me = await self._me(request)
        ended = await self.store.end_logins(me.uid)
        self.ended(me.uid, None, None)
        response = web.json_response({"ok": True, "ended": ended})
        response.del_cookie(COOKIE, path="/")
        return response

    @answered
    async def change_password(self, request: web.Request) -> web.Response:
        """POST {current, password}: a new password; every other login ends, and the
        websockets opened with them."""
        body = await self._body(request)
        me = await self._me(request)
        await self._recheck(request, me, body.get("current"))
        password = check_password(body.get("password"), me.name)
        await self.store.set_hash(me.uid, await self._hash(password, True))
        ended = await self.store.end_logins(me.uid, keep=me.token)
        self.ended(me.uid, None, login_hash(me.token))
        return web.json_response({"ok": True, "ended": ended})

    @answered
    async def delete(self, request: web.Request) -> web.Response:
        """POST {password}: the account is deleted (its matches stay, under "deleted
        player"); its name is never given to anybody else."""
        body = await self._body(request)
        me = await self._me(request)
        await self._recheck(request, me, body.get("password"))
        await self.store.mark_deleted(me.uid)
        self.ended(me.uid, None, None)
        await self.history.forget_player(me.uid, DELETED)
        response = web.json_response({"ok": True})
        response.del_cookie(COOKIE, path="/")
        return response

    @answered
    async def me(self, request: web.Request) -> web.Response:
        """GET: the logged-in account, or {"username": null} for a guest."""
        who = await self.logged_in(request)
        return web.json_response({"username": None if who is None else who.name})

    async def _me(self, request: web.Request) -> LoggedIn:
        who = await self.logged_in(request)
        if who is None:
            raise AccountError("not_logged_in", "Log in first.", 401)
        return who

    async def _recheck(self, request: web.Request, me: LoggedIn, password: object) -> None:
        """The current password again, for what cannot be undone; failures count as logins'."""
        trusted = await self.store.trusted(me.uid, self._marks(request))
        counted = await self._attempt(request, username_key(me.name), False, True, trusted)
        account = await self.store.account(me.uid)
        stored = None if account is None else account.get("hash")
        if not isinstance(password, str) or not await self._verify(
            stored, password, trusted, counted
        ):
            raise AccountError("bad_login", "Wrong password.", 401)
        await self.store.forgive(*counted)

    async def _attempt(
        self, request: web.Request, key: str, per_address: bool, exists: bool, trusted: bool
    ) -> list[str]:
        """Count a password attempt on account `key` from the request's address, or refuse it
        (`throttled`) past a limit; the keys counted, to forgive on success. A name nobody
        has gets no counter of its own (only the address's); from where the account logged
        in lately (`trusted`), the failures of all addresses together do not count."""
        address = self.address(request)
        limits: dict[str, int] = {}
        if exists:
            limits[f"acct:{key}:{address}"] = ACCOUNT_ADDRESS_FAILS
            if not trusted:
                limits[f"acct:{key}"] = ACCOUNT_FAILS
        if per_address:
            limits[f"ip:{address}"] = ADDRESS_FAILS
        counts = await self.store.attempt(FAIL_WINDOW_S, *limits)
        for (what, limit), count in zip(limits.items(), counts, strict=True):
            if count > limit:
                await self.store.forgive(*limits)  # a refused attempt tried nothing
                raise self._throttled(await self.store.retry_after(what))
        return list(limits)

    async def _login_budget(self, request: web.Request) -> None:
        """Count a login from the request's address whatever comes of it, or refuse it
        (`throttled`) past `logins_per_address` in the window: the failures have limits of
        their own, but right passwords, again and again, each cost a hash and stored a
        login (attacker review, 2026-11-28)."""
        what = "logins:" + self.address(request)
        (made,) = await self.store.attempt(FAIL_WINDOW_S, what)
        if made > self.logins_per_address:
            raise self._throttled(await self.store.retry_after(what))

    @staticmethod
    def _throttled(retry: float) -> AccountError:
        return AccountError(
            "throttled", "Too many attempts; try again later.", 429,
            params={"retry_after": round(retry)},
        )  # fmt: skip
