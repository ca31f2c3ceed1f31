"""Scripted models for the ToolFuzz pipelines on the example tools: an *agent* that uses one tool
the way its documentation tells it to, and a *tester* that answers the pipelines' prompts
(user-request writer, template and infill generator, expectation writer, oracle, doc fixer).

    masfuzz tools examples/tools/literature_search.py:pubmed_search --correctness --fix-docs \
        --model scripted/examples/tools/policies.py:tester \
        --sut-model scripted/examples/tools/policies.py:agent

Both are deterministic functions of what they are sent, like a model at temperature 0. The agent
follows the documentation literally: it adds a documented prefix, and writes a date filter into a
literature query only when the description explains the syntax.
"""

from __future__ import annotations

import json
import re

from masfuzz.llm.scripted import call, last_user_text, say, tool_results

_SANITY = re.compile(r"Call the tool `([^`]+)` with exactly these arguments:\n(.*)\nIf these", re.S)
_STOP = {"can", "you", "list", "some", "papers", "paper", "on", "about", "from", "the", "year", "only",
         "find", "me", "please", "published", "in", "articles", "for"}


# --- the agent -----------------------------------------------------------------------------


def agent(request):
    tool = request.tools[0] if request.tools else None
    done = tool_results(request)
    if done:
        out = done[-1].content
        if out.startswith("Error"):
            return say(f"Sorry, the tool failed: {out}")
        return say(f"Here is what I found:\n{out}")
    text = last_user_text(request)
    m = _SANITY.search(text)
    if m and tool is not None:
        arguments = json.loads(m.group(2))
        # A model refuses to pass binary junk that no documentation describes.
        if any(isinstance(v, str) and any(not c.isprintable() for c in v) for v in arguments.values()):
            return say("REFUSE: these arguments contain unprintable characters.")
        return call(tool.name, **arguments)
    if tool is None:
        return say("I cannot help with that.")
    return call(tool.name, **_arguments_for(tool, text))


def _arguments_for(tool, text):
    props = tool.parameters.get("properties", {})
    quoted = re.findall(r'"([^"]*)"', text)
    if tool.name == "pubmed_search":
        # A query the user quoted is passed as it is; otherwise the agent writes one.
        return {"query": quoted[0] if quoted else _literature_query(text, tool.description)}
    if tool.name == "celsius_to_fahrenheit":
        num = re.search(r"-?\d+(?:\.\d+)?", text)
        return {"celsius": float(num.group()) if num else 0.0}
    args = {}
    for i, name in enumerate(props):
        label = name.replace("_", " ")
        m = re.search(re.escape(label) + r'\s+"([^"]*)"', text)
        if m:
            args[name] = m.group(1)
        elif i < len(quoted):
            args[name] = quoted[i]
        elif i == 0:
            args[name] = text
    prefix = re.search(r"must start with '([^']+)'", tool.description)
    first = next(iter(props), None)
    if prefix and first in args and not args[first].startswith(prefix.group(1)):
        args[first] = prefix.group(1) + args[first]
    return args


def _literature_query(text, description):
    year = re.search(r"\b(19|20)\d{2}\b", text)
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", text) if w.lower() not in _STOP]
    topic = " ".join(words)
    if year and "[Date - Publication]" in description:
        y = year.group()
        return f'{topic} AND ("{y}/01/01"[Date - Publication] : "{y}/12/31"[Date - Publication])'
    return f"{topic} {year.group()}" if year else topic


# --- the tester ----------------------------------------------------------------------------


def tester(request):
    text = last_user_text(request)
    if text.startswith("You are an AI assistant tester"):
        return _user_request(text)
    if "Generate **template questions**" in text:
        return json.dumps({"templates": _templates(text)})
    if "Generate infills" in text:
        return json.dumps({"infills": _infills(text)})
    if text.startswith("You are emulating the following tool"):
        return json.dumps({"answer": _expected_answer(text)})
    if text.startswith("You are assessing an agent RESPONSE"):
        return json.dumps(_oracle(text))
    if text.startswith("You maintain the documentation"):
        return json.dumps(_doc_fix(text))
    return json.dumps({})


def _user_request(text):
    arguments = json.loads(text.split("with these arguments:\n", 1)[1].split("\nPut the argument", 1)[0])
    if len(arguments) == 1:
        (value,) = arguments.values()
        value = str(value).removeprefix("query: ")
        return json.dumps({"request": f'Can you look up "{value}" for me?'})
    parts = " and ".join(f'{k.replace("_", " ")} "{v}"' for k, v in arguments.items())
    return json.dumps({"request": f"Please do this for me with {parts}."})


def _tool_name(text):
    m = re.search(r"\b(pubmed_search|celsius_to_fahrenheit|open_street_map_search)\b", text)
    return m.group(1) if m else ""


def _templates(text):
    return {
        "pubmed_search": ["Can you list some papers on [A] from [B]?"],
        "celsius_to_fahrenheit": ["What is [A] in Fahrenheit?"],
        "open_street_map_search": ["Find [A] in [B]"],
    }.get(_tool_name(text), ["Tell me about [A]"])


def _infills(text):
    if "papers on [A] from [B]" in text:
        return {"A": ["cancer RNA technology", "RNA technology for cancer", "RNA-based cancer technology"],
                "B": ["2020", "the year 2020", "2020 only"]}
    if "[A] in Fahrenheit" in text:
        return {"A": ["20 degrees Celsius", "20 °C", "20.0 C", "20 Celsius"]}
    if "Find [A] in [B]" in text:
        return {"A": ["libraries", "public libraries", "a library"], "B": ["San Francisco", "SF", "San Francisco CA"]}
    return {"A": ["it"]}


def _expected_answer(text):
    question = text.split("in one sentence:", 1)[-1]
    year = re.search(r"\b(19|20)\d{2}\b", question)
    if year:
        return f"Papers published in {year.group()} on this topic."
    num = re.search(r"-?\d+(?:\.\d+)?", question)
    if num:
        return f"{float(num.group()):g} °C is {float(num.group()) * 9 / 5 + 32:.1f} °F"
    return "A list of matching places."


def _oracle(text):
    response = text.split("Agent response:", 1)[1].split("Expectations:", 1)[0]
    expectation = text.rsplit("2.", 1)[-1]
    year = re.search(r"\b(19|20)\d{2}\b", expectation)
    if year:
        published = re.findall(r"Published: (\d{4})", response)
        ok = published and all(p == year.group() for p in published)
        return {"reason": f"papers from {year.group()} expected, response has {published or 'none'}",
                "correctness_degree": 9 if ok else 2}
    num = re.search(r"(-?\d+(?:\.\d+)?) °F", expectation)
    if num:
        ok = num.group(1) in response
        return {"reason": "temperature matches" if ok else "wrong temperature", "correctness_degree": 9 if ok else 3}
    return {"reason": "plausible", "correctness_degree": 6}


def _doc_fix(text):
    k = int(re.search(r"This is candidate (\d+)", text).group(1))
    if _tool_name(text) != "pubmed_search":
        return {"reason": "unclear", "description": None}
    candidates = {
        1: "Search PubMed for medical and life-science papers. Input is a specific search query.",
        2: ("Search PubMed for medical and life-science papers. The query matches words of paper "
            "titles; it does not understand years written as words. To restrict the publication "
            "date, add a filter in PubMed syntax: TOPIC AND (\"2020/01/01\"[Date - Publication] : "
            "\"2020/12/31\"[Date - Publication]), dates as YYYY/MM/DD."),
        3: "Search PubMed. Mention the year you want in the query.",
    }
    return {"reason": "the agent wrote the year as a title word; the date filter syntax is undocumented",
            "description": candidates.get(k, candidates[1])}
