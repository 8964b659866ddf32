"""Accounts: what a username and a password may be, and how a password is kept (pure: no I/O).

The Redis side is server/store/accounts.py; the HTTP side server/net/accounts.py
(docs/accounts.md)."""
