"""Accounts: what a username and a password may be, and how a password is kept (pure: no I/O).

The Redis side is server/accounts/store.py; the HTTP side server/accounts/http.py
(docs/accounts.md)."""
