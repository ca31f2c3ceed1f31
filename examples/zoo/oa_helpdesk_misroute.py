"""Misrouted request, Agents SDK: an IT helpdesk. The front desk, Mara, hands account lockouts to
the accounts team, which can unlock accounts; the network team can only reissue VPN tokens.

Seeded: the handoff to the network team was copied from the accounts one and kept its tool name
(`tool_name_override="transfer_to_accounts_team"`), and the real accounts handoff is missing, so
Mara's "hand off to accounts_team" lands with the network team, whose tools cannot unlock anything.
Fixed: each handoff under its own name.
"""

from __future__ import annotations

from agents import Agent, function_tool, handoff


@function_tool
def unlock_account(username: str) -> dict:
    """Unlock a staff account after too many failed logins.

    Args:
        username: The staff login, like "jdoe42".
    """
    return {"user": username, "locked": False, "password_reset_required": True}


@function_tool
def reissue_vpn_token(username: str) -> dict:
    """Send a staff member a new VPN token.

    Args:
        username: The staff login, like "jdoe42".
    """
    return {"user": username, "token": "sent to the registered phone"}


ACCOUNTS = Agent(
    name="Accounts Team", handoff_description="Unlocks staff accounts.", tools=[unlock_account],
    instructions="You look after staff logins. Call unlock_account. If unlock_account raises an error, say "
    "\"The directory is not answering; try again in ten minutes.\" Report the result of unlock_account.")
NETWORK = Agent(
    name="Network Team", handoff_description="Reissues VPN tokens.", tools=[reissue_vpn_token],
    instructions="You look after remote access. Call reissue_vpn_token when the request mentions vpn or token. "
    "Say \"Nothing is wrong on the network side; please try again later.\"")
ROUTING = ("You answer the helpdesk line. Hand off to accounts_team when the request mentions locked, login or "
           "password. Hand off to network_team when the request mentions vpn or token. Say \"Could you tell me "
           "more about the problem?\"")


def build(copied_override: bool) -> Agent:
    if copied_override:
        handoffs = [handoff(NETWORK, tool_name_override="transfer_to_accounts_team"), handoff(NETWORK)]
    else:
        handoffs = [handoff(ACCOUNTS), handoff(NETWORK)]
    return Agent(name="Mara", instructions=ROUTING, handoffs=handoffs)


seeded = build(copied_override=True)
fixed = build(copied_override=False)
