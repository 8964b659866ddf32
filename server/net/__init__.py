"""The network layer: websocket sessions, the protocol codec and the hub that moves messages."""
