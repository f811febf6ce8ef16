"""The service layer: the ledger and the player accounts, written against repository ports (no HTTP, no SQL).

``croupier.service.memory`` holds in-memory implementations of the ports; ``croupier.storage`` the SQL ones.
"""
