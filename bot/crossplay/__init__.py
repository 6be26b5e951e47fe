"""Play across servers (issue 42): who may, from where, and what each server keeps to itself.

- ``access``: a server's opt-in (``/admin crossplay``), the operator's bar, and why a player
  may not play across servers from here.
- ``invitees``: at a table of one server, only its members may be invited.
"""
