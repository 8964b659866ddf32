"""Novuss online: an authoritative game server for Novuss (koroona)."""
