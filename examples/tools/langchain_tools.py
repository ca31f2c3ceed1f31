"""Twelve real LangChain community tools that need no network and no API key, for
`masfuzz tools examples/tools/langchain_tools.py:TOOLS` (needs the `toolfuzz-langchain` extra).

The file tools work relative to the current directory, which the sandbox makes a fresh empty
temporary folder for each call; the SQL tools query an in-memory SQLite database (each sandbox
worker gets its own copy when it forks, so nothing a fuzzed query does reaches this process).
"""

from __future__ import annotations

from langchain_community.agent_toolkits import FileManagementToolkit
from langchain_community.tools.json.tool import JsonGetValueTool, JsonListKeysTool, JsonSpec
from langchain_community.tools.sql_database.tool import (
    InfoSQLDatabaseTool,
    ListSQLDatabaseTool,
    QuerySQLDatabaseTool,
)
from langchain_community.utilities import SQLDatabase
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool


def _database() -> SQLDatabase:
    engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    with engine.begin() as conn:
        conn.exec_driver_sql("create table papers (id integer primary key, title text, year int)")
        conn.exec_driver_sql("insert into papers (title, year) values ('TUG1 long non-coding RNA', 2020), "
                             "('Protein folding with deep learning', 2023)")
    return SQLDatabase(engine)


_SPEC = JsonSpec(dict_={"papers": [{"title": "TUG1 long non-coding RNA", "year": 2020,
                                    "authors": ["Li", "Wang"]}], "count": 1})
_DB = _database()

TOOLS = [
    *FileManagementToolkit(root_dir=".").get_tools(),
    JsonListKeysTool(spec=_SPEC),
    JsonGetValueTool(spec=_SPEC),
    InfoSQLDatabaseTool(db=_DB),
    ListSQLDatabaseTool(db=_DB),
    QuerySQLDatabaseTool(db=_DB),
]
