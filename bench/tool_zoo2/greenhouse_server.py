"""An MCP server of a greenhouse's sensors, for a growing-assistant agent.

`python greenhouse_server.py` serves over stdio. `sensor_average` (seeded) looks a sensor up with
`dict.get` and indexes what it returns: a sensor name not in the greenhouse raises TypeError on
None where the documentation promises "no such sensor"; `sensor_average_fixed` checks.
`set_vent` rejects, as documented, an opening outside 0 to 100 percent.
"""

from __future__ import annotations

try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # MCP SDK 1.x
    from mcp.server.fastmcp import FastMCP as Server

server = Server("greenhouse-sensors", log_level="CRITICAL")
_SENSORS = {
    "north-bench": {"unit": "°C", "readings": [18.2, 18.9, 19.4, 21.0, 22.3, 21.7]},
    "south-bench": {"unit": "°C", "readings": [19.0, 20.1, 21.8, 23.5, 24.2, 23.9]},
    "misting-line": {"unit": "% RH", "readings": [71.0, 74.5, 80.2, 78.8, 76.1, 72.4]},
}


def _average(readings: list[float], last: int) -> float:
    window = readings[-last:]
    return sum(window) / len(window)


@server.tool()
def sensor_average(sensor: str, last: int = 3) -> str:
    """The average of a sensor's latest readings.

    sensor: the sensor's name, e.g. "north-bench"; a name the greenhouse does not have answers
        "no such sensor".
    last: how many of the latest hourly readings to average, 1 to 6; another number raises
        ValueError.
    """
    if not 1 <= last <= 6:
        raise ValueError(f"last must be 1 to 6, got {last}")
    found = _SENSORS.get(sensor.strip().lower())
    readings = found["readings"]  # the seeded bug: None for an unknown sensor
    return f"{_average(readings, last):.1f} {found['unit']}"


@server.tool()
def sensor_average_fixed(sensor: str, last: int = 3) -> str:
    """The average of a sensor's latest readings.

    sensor: the sensor's name, e.g. "north-bench"; a name the greenhouse does not have answers
        "no such sensor".
    last: how many of the latest hourly readings to average, 1 to 6; another number raises
        ValueError.
    """
    if not 1 <= last <= 6:
        raise ValueError(f"last must be 1 to 6, got {last}")
    found = _SENSORS.get(sensor.strip().lower())
    if found is None:
        return "no such sensor"
    return f"{_average(found['readings'], last):.1f} {found['unit']}"


@server.tool()
def set_vent(opening_percent: int) -> str:
    """Open the roof vents.

    opening_percent: how far to open them, 0 (closed) to 100 (fully open); another value
        raises ValueError.
    """
    if not 0 <= opening_percent <= 100:
        raise ValueError(f"opening_percent must be 0 to 100, got {opening_percent}")
    return f"vents set to {opening_percent}%"


if __name__ == "__main__":
    server.run()
