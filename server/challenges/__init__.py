"""Challenges: a registered player challenged by name to a room of given settings, who accepts
or declines in whichever tab of theirs is open on whichever process (docs/protocol.md,
"challenge"; docs/client.md, "Challenges and notices").

`book.py` is the pure part (a challenge, its messages, its limits), `store.py` what Redis
keeps (the challenges waiting, who is online where), `service.py` the service, `routes.py`
the dispatcher's routes.
"""
