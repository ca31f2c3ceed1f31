"""Misrouted request, Agents SDK: an IT helpdesk. The front desk, Mara, hands account lockouts to
the accounts team, which can unlock accounts; the network team can only reissue VPN tokens.

Seeded: Mara's routing table files lockouts ("locked", "login") under the network team, next to
VPN tokens, so a caller locked out of their account lands with a team whose tools cannot unlock
anything and who sends them away. Fixed: lockouts go to the accounts team.
"""

from __future__ import annotations

from agents import Agent, function_tool


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
NETWORK_FIRST = ("You answer the helpdesk line. Hand off to network_team when the request mentions vpn, token, "
                 "locked or login. Hand off to accounts_team when the request mentions password reset. Say \"Could "
                 "you tell me more about the problem?\"")
ACCOUNTS_FIRST = ("You answer the helpdesk line. Hand off to accounts_team when the request mentions locked, login or "
                  "password. Hand off to network_team when the request mentions vpn or token. Say \"Could you "
                  "tell me more about the problem?\"")


def build(routing: str) -> Agent:
    return Agent(name="Mara", instructions=routing, handoffs=[ACCOUNTS, NETWORK])


seeded = build(NETWORK_FIRST)
fixed = build(ACCOUNTS_FIRST)
